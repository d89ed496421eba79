/* DMA-BUF buffers (dmabuf.h). */
#include <errno.h>
#include <string.h>
#include "dmabuf.h"
#include "rd.h"
#include "sc.h"

static const char dmabuf_sysfs[] = "/sys/kernel/dmabuf/buffers";

int dmabuf_sysfs_total(uint64_t *bytes, uint64_t *buffers, struct diag *d)
{
	struct rd_dir dir;
	const char *name;
	unsigned char type;
	int k;

	*bytes = *buffers = 0;
	*d = (struct diag){ 0 };
	if ((k = rd_dir_open(&dir, dmabuf_sysfs)) < 0)
		return k;
	while ((k = rd_dir_next(&dir, &name, &type)) > 0) {
		/* "INODE/size": the name is a number of at most 20 digits */
		char rel[32], buf[32];
		size_t n = strlen(name);
		uint64_t v;
		int trunc;
		long len;

		if (n > 20 || sc_u64_all(name, n, &v) != SC_OK)
			continue;   /* not a buffer's directory */
		memcpy(rel, name, n);
		memcpy(rel + n, "/size", sizeof "/size");
		len = rd_fileat(dir.fd, rel, buf, sizeof buf, &trunc);
		if (len == -ENOENT)
			continue;   /* freed since the listing */
		if (len > 0 && buf[len - 1] == '\n')
			len--;
		if (len < 0 || trunc || sc_u64_all(buf, (size_t)len, &v) != SC_OK) {
			if (!mb_diag_set(d))
				*d = (struct diag){ dmabuf_sysfs, 0,
					len < 0 ? 0 : "garbled size file skipped",
					len < 0 ? (int)-len : 0 };
			continue;
		}
		*bytes = sat_add(*bytes, v);
		++*buffers;
	}
	rd_dir_close(&dir);
	return k;
}
