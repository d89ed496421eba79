/* gpubuf: the devices' DMA-BUF workload.  "gpubuf CARD KIB [map]" opens the
 * DRM device CARD (vgem's /dev/dri/cardN), makes a dumb buffer of KIB KiB
 * (DRM_IOCTL_MODE_CREATE_DUMB, 32 bits a pixel, 256 pixels a row), exports
 * it as a DMA-BUF descriptor (DRM_IOCTL_PRIME_HANDLE_TO_FD), with "map"
 * also maps it shared, then forks a child that inherits the descriptor:
 * two processes hold one buffer.  It prints one line,
 *   PID CHILD SIZE FD MAPPED
 * (the buffer's size in bytes as the kernel made it, the descriptor's
 * number in both, MAPPED 1 when the mapping was made, else 0) and both
 * wait until killed.  Exits 1 (with a message) when a step fails.
 * The few ioctl numbers and structs are those of the kernel's uapi
 * include/uapi/drm/drm.h and drm_mode.h: the cross toolchains have no drm
 * headers. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* include/uapi/drm/drm_mode.h */
struct drm_mode_create_dumb {
	uint32_t height;
	uint32_t width;
	uint32_t bpp;
	uint32_t flags;
	uint32_t handle;
	uint32_t pitch;
	uint64_t size;
};
/* include/uapi/drm/drm.h */
struct drm_prime_handle {
	uint32_t handle;
	uint32_t flags;
	int32_t fd;
};
#define DRM_IOCTL_BASE 'd'
#define DRM_IOCTL_PRIME_HANDLE_TO_FD _IOWR(DRM_IOCTL_BASE, 0x2d, struct drm_prime_handle)
#define DRM_IOCTL_MODE_CREATE_DUMB _IOWR(DRM_IOCTL_BASE, 0xB2, struct drm_mode_create_dumb)

#define WIDTH 256

int main(int argc, char **argv)
{
	struct drm_mode_create_dumb c = { 0 };
	struct drm_prime_handle p = { 0 };
	unsigned long kib;
	int card, mapped = 0;
	pid_t child;

	if (argc < 3 || (kib = strtoul(argv[2], 0, 10)) == 0) {
		fputs("usage: gpubuf CARD KIB [map]\n", stderr);
		return 2;
	}
	card = open(argv[1], O_RDWR | O_CLOEXEC);
	if (card < 0) {
		perror(argv[1]);
		return 1;
	}
	/* a row is WIDTH * 4 bytes, one KiB: KIB rows make KIB KiB */
	c.width = WIDTH;
	c.height = kib;
	c.bpp = 32;
	if (ioctl(card, DRM_IOCTL_MODE_CREATE_DUMB, &c) != 0) {
		perror("DRM_IOCTL_MODE_CREATE_DUMB");
		return 1;
	}
	p.handle = c.handle;
	p.flags = O_RDWR;
	if (ioctl(card, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) != 0) {
		perror("DRM_IOCTL_PRIME_HANDLE_TO_FD");
		return 1;
	}
	/* only the DMA-BUF descriptor (and its mapping) holds the buffer now */
	close(card);
	if (argc > 3 && argv[3][0] == 'm') {
		void *m = mmap(0, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd, 0);
		if (m == MAP_FAILED)
			perror("mmap of the DMA-BUF");
		else
			mapped = 1;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0) {
		for (;;)
			pause();
	}
	printf("%ld %ld %llu %d %d\n", (long)getpid(), (long)child, (unsigned long long)c.size, p.fd, mapped);
	fflush(stdout);
	for (;;)
		pause();
}
