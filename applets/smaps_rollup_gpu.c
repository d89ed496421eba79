/* smaps-rollup --gpu: the DMA-BUF buffers and DRM clients each process
 * holds, read in a pass over every process before the process view
 * (core/dmabuf.c: a buffer or client held by n processes is 1/n of each
 * one's, as PSS divides a page); each process's figures are kept by PID
 * for the rows.  The pass reads /proc/PID/fd (a readlink per
 * descriptor), the fdinfo of each DMA-BUF or DRM descriptor and
 * /proc/PID/maps: a few system calls more per process, and one more per
 * descriptor, which is why it is an option. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "applet.h"
#include "dmabuf.h"
#include "rd.h"
#include "smaps_rollup.h"

/* the pass's state, in the storage the process view then takes */
#define GS this.smaps_rollup.v.gpu

static int by_pid(const void *a, const void *b)
{
	const struct sr_gpu *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int sr_gpu_pass(struct sr_scan *s)
{
	struct rd_dir dir;
	uint32_t i;
	long pid;

	s->ngpu = 0;
	if (rd_dir_open(&dir, "/proc") < 0)
		return 0;   /* the scan says it */
	while ((pid = rd_pid_next(&dir)) > 0) {
		char name[MB_U64_LEN];
		int fd;
		name[u64_str(name, (uint64_t)pid)] = 0;
		if ((fd = rd_openat_root(dir.fd, name, O_RDONLY | O_DIRECTORY)) < 0)
			continue;   /* gone */
		dmabuf_read_proc(&GS, fd, (uint32_t)pid);
		close(fd);
	}
	rd_dir_close(&dir);
	s->coverage[SR_GPU_UNREADABLE] += GS.unreadable + GS.fds_unreadable;
	s->coverage[SR_GPU_DROPPED] += GS.dropped;
	dmabuf_of(&GS, 0, (uint64_t[HOLD_NSIZE]){ 0 }, (uint64_t[HOLD_NSIZE]){ 0 });   /* orders GS.procs */
	for (i = 0; i < GS.nprocs; i++) {
		uint64_t share[HOLD_NSIZE], whole[HOLD_NSIZE];
		struct sr_gpu *g;
		uint32_t pid_i = GS.procs[i].pid;
		if (s->ngpu == REP_N(s->gpu)) {
			s->coverage[SR_GPU_DROPPED]++;
			continue;
		}
		dmabuf_of(&GS, pid_i, share, whole);
		g = &s->gpu[s->ngpu++];
		g->pid = pid_i;
		g->kb[SR_GPU_DMABUF_PSS] = share[HOLD_DMABUF] >> 10 < UINT32_MAX ? share[HOLD_DMABUF] >> 10 : UINT32_MAX;
		g->kb[SR_GPU_DMABUF_RSS] = whole[HOLD_DMABUF] >> 10 < UINT32_MAX ? whole[HOLD_DMABUF] >> 10 : UINT32_MAX;
		g->kb[SR_GPU_DRM_PSS] = share[HOLD_DRM] >> 10 < UINT32_MAX ? share[HOLD_DRM] >> 10 : UINT32_MAX;
	}
	qsort(s->gpu, s->ngpu, sizeof *s->gpu, by_pid);
	return 0;
}

void sr_gpu_of(const struct sr_scan *s, unsigned pid, uint32_t kb[SR_GPU_N])
{
	struct sr_gpu key = { pid, { 0 } };
	const struct sr_gpu *g = bsearch(&key, s->gpu, s->ngpu, sizeof key, by_pid);
	unsigned i;

	for (i = 0; i < SR_GPU_N; i++)
		kb[i] = g ? g->kb[i] : 0;
}
