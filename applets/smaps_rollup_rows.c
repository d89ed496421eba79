/* smaps-rollup: the processes a process view keeps, packed, and their
 * sizes and sums (smaps_rollup.h), a leaf below the process view and the
 * cgroup view.  It works on the struct sr_kept it is given. */
#include <string.h>
#include "applet.h"
#include "proc.h"
#include "sc.h"
#include "smaps_rollup.h"

/* Each size (the sort keys before SR_SORT_PID) as the kernel's smaps key,
 * and as status's counter where only status is readable.  USS is
 * Private_Clean + Private_Dirty + Private_Hugetlb, else RssAnon. */
static const unsigned char rollup_key[SR_SORT_PID] = { PR_Pss, PR_Private_Clean, PR_Rss, PR_Swap,
	PR_SwapPss, PR_Pss_Anon, PR_Pss_File, PR_Pss_Shmem, PR_Private_Dirty };
static const unsigned char status_key[SR_SORT_PID] = { PR_VmRSS, PR_RssAnon, PR_VmRSS, PR_VmSwap,
	PR_VmSwap, PR_RssAnon, PR_RssFile, PR_RssShmem, PR_RssAnon };

_Static_assert(SR_MAX_RULES < 32, "a kept process's category is 5 bits");
/* A packed process at most: Name (length and bytes), -S's shared swap, --gpu's figures,
 * then a variable-length integer (at most 5 bytes for 32 bits) per size,
 * then where its command line is */
#define PACKED_MAX (1 + SR_NAME_MAX + 5 + 5 * SR_GPU_N + 5 * PR_NROLL + 5)

uint64_t sr_row_size(const struct sr_row *r, int m, int *has)
{
	int k = r->source == PR_SRC_STATUS ? status_key[m] - PR_NROLL : rollup_key[m], h;
	uint64_t v = r->kb[k];

	if (k == PR_Private_Clean)
		v += (uint64_t)r->kb[PR_Private_Dirty] + r->kb[PR_Private_Hugetlb];
	h = r->have >> k & 1;
	v = h ? v << 10 : 0;
	if (m == SR_SORT_SWAP_PSS && r->shared_swap_kb) {
		v += (uint64_t)r->shared_swap_kb << 10;
		h = 1;
	}
	if (has)
		*has = h;
	return v;
}

/* An approximate row adds no rollup key: its status counters are sizes
 * only. */
void sr_add(struct sr_sums *s, const struct sr_row *r)
{
	int m, k;

	s->processes++;
	for (m = 0; m < SR_SUMMED; m++)
		s->size[m] = sat_add(s->size[m], sr_row_size(r, m, 0));
	s->pss_total = sat_add(s->size[SR_SORT_PSS], s->size[SR_SORT_SWAP_PSS]);
	for (k = 0; r->source != PR_SRC_STATUS && k < PR_NROLL; k++)
		if (r->have >> k & 1) {
			s->kernel[k] = sat_add(s->kernel[k], (uint64_t)r->kb[k] << 10);
			s->having[k]++;
		}
	for (m = 0; m < SR_GPU_N; m++)
		s->gpu[m] = sat_add(s->gpu[m], (uint64_t)r->gpu_kb[m] << 10);
}

/* 7 bits a byte, the lowest first; the high bit: more follow */
static unsigned char *put_number(unsigned char *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	return p;
}

static uint64_t get_number(const unsigned char **p)
{
	uint64_t v = 0;
	unsigned shift = 0;

	do
		v |= (uint64_t)(**p & 0x7f) << shift, shift += 7;
	while (*(*p)++ & 0x80);
	return v;
}

/* r's command line into the command pool: where it is + 1, or 0 when it
 * was not read or has no room (it is then re-read when written). */
static uint32_t keep_command(struct sr_kept *t, const struct sr_row *r)
{
	uint32_t at = t->command_pool_used;
	unsigned char *p = t->command_pool + at;

	if (!r->command || SR_CMD_POOL - at < 5 + (size_t)r->command_len)
		return 0;
	p = put_number(p, (uint64_t)r->command_len << 1 | !!r->command_cut);
	memcpy(p, r->command, r->command_len);
	t->command_pool_used = p + r->command_len - t->command_pool;
	return at + 1;
}

int sr_keep(struct sr_kept *t, const struct sr_row *r)
{
	struct kept *k = &t->kept[t->nkept];
	unsigned char *p = t->pool + t->pool_used;
	size_t n = strlen(r->name);
	unsigned i;

	if (t->nkept == SR_MAX_ROWS || SR_ROW_POOL - t->pool_used < PACKED_MAX)
		return 0;
	k->pid = r->pid;
	k->ppid = r->ppid;
	k->uid = r->uid;
	k->at = t->pool_used;
	k->have = r->have;
	k->source = r->source;
	k->category = r->category;
	*p++ = n;
	memcpy(p, r->name, n);
	p += n;
	if (t->shared_swap)
		p = put_number(p, r->shared_swap_kb);
	for (i = 0; t->gpu && i < SR_GPU_N; i++)
		p = put_number(p, r->gpu_kb[i]);
	for (i = 0; i < PR_NROLL; i++)
		if (r->have >> i & 1)
			p = put_number(p, r->kb[i]);
	if (t->commands)
		p = put_number(p, keep_command(t, r));
	t->pool_used = p - t->pool;
	t->nkept++;
	return 1;
}

void sr_unpack(const struct sr_kept *t, unsigned i, struct sr_row *r)
{
	const struct kept *k = &t->kept[i];
	const unsigned char *p = t->pool + k->at, *c;
	unsigned j;
	uint64_t v;

	memset(r, 0, sizeof *r);
	r->pid = k->pid;
	r->ppid = k->ppid;
	r->uid = k->uid;
	r->have = k->have;
	r->source = k->source;
	r->category = k->category;
	memcpy(r->name, p + 1, *p);
	p += 1 + *p;
	if (t->shared_swap)
		r->shared_swap_kb = get_number(&p);
	for (j = 0; t->gpu && j < SR_GPU_N; j++)
		r->gpu_kb[j] = get_number(&p);
	for (j = 0; j < PR_NROLL; j++)
		if (r->have >> j & 1)
			r->kb[j] = get_number(&p);
	if (t->commands && (v = get_number(&p))) {
		c = t->command_pool + v - 1;
		v = get_number(&c);
		r->command = (const char *)c;
		r->command_len = v >> 1;
		r->command_cut = v & 1;
	}
}
