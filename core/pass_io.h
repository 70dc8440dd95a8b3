/*
 * pass_io.h — was a disk pass disturbed? Snapshots around one timed disk
 * pass (a seq write run, a seq read pass, a rand pass, the fsync pass):
 *   - /proc/diskstats of the test file's block device (st_dev ->
 *     /sys/dev/block name, else the mount source for btrfs; unknown ->
 *     "not checked", never clean): the sectors read and written during
 *     the pass beyond the pass's own bytes are foreign I/O;
 *   - /proc/pressure/io "some" in a short quiet window just BEFORE the
 *     pass: during the pass our own waits on the disk count in io
 *     pressure, so only a window where we do no I/O says whether
 *     something else is waiting on storage;
 *   - steal during the pass from /proc/stat (all CPUs' busy + steal).
 * A disturbed pass's figures are shown, marked, never graded.
 */
#ifndef VPSBENCH_PASS_IO_H
#define VPSBENCH_PASS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proc_stat.h"
#include "value.h"

/* The quiet window before a pass in which io pressure is read (ms). */
#define PASS_IO_QUIET_MS 50u
/*
 * What the filesystem may write beside the pass's own bytes and still be
 * the pass's own doing: 2% of the pass's bytes (extent and bitmap updates,
 * the journal's copies of them) plus, per fdatasync(), 24 KiB (the
 * partial page written again and a journal commit of a few 4 KiB blocks:
 * the fsync pass on a fresh ext4 (loop device, 6636 syncs) wrote 13.3 KB
 * per sync in all, so 24 KiB is 1.8 times what ext4 needs).
 */
#define PASS_IO_META_FRAC 0.02
#define PASS_IO_META_PER_SYNC (24u * 1024u)
/*
 * Foreign bytes (read + written, beyond own + the allowance above) that
 * disturb a pass: more than 10% of the pass's own bytes AND more than
 * 8 MiB. 10%: a second stream worth a tenth of the pass's traffic takes
 * about a tenth of the device's time, the size of a healthy disk's
 * run-to-run spread, so the figure may be off by more than its spread.
 * 8 MiB: an idle system's background writes (journald, the filesystem's
 * 5 s commit, atime) stay well under it during a pass of a few seconds,
 * and a few MiB of 4 KiB writes cannot move a pass of 100s of MB.
 */
#define PASS_IO_FOREIGN_FRAC 0.10
#define PASS_IO_FOREIGN_MIN_BYTES (8ull << 20)
/*
 * Foreign I/Os (requests completed beyond the pass's own) that disturb a
 * pass whose own count is known (a rand pass: its 4 KiB O_DIRECT I/Os reach
 * the device one request each): more than 10% of its own and more than
 * 2048 (8 MiB of 4 KiB requests). A neighbour's small random I/O costs the
 * device as much time as ours even when its bytes are few. Not used for
 * the seq passes: the block layer splits and merges their large requests.
 */
#define PASS_IO_FOREIGN_MIN_IOS 2048u
/*
 * io pressure "some" in the quiet window: above 10% of the window some
 * task of this system was waiting on I/O while vpsbench did none, so the
 * storage was busy with someone else's work when the pass began.
 */
#define PASS_IO_SOME_MAX_PCT 10.0
/* Steal during the pass above 10% (the same bound as Health's steal). */
#define PASS_IO_STEAL_MAX_PCT 10.0

/* The block device whose /proc/diskstats line counts a pass's I/O. */
struct pass_io_dev {
	bool known;
	char name[64];         /* diskstats name: "vda1", "loop0", "dm-0" */
	char why[128];         /* when !known: why not checked */
};

/* Counters of one diskstats line (sectors are 512 bytes whatever the device). */
struct pass_io_disk {
	uint64_t rd_ios, rd_sect, wr_ios, wr_sect;
};

struct pass_io_snap {
	bool disk_ok;
	struct pass_io_disk disk;
	struct mdbl some_pct;  /* quiet window before the pass */
	struct proc_stat *st;  /* heap; NULL when not read */
};

/* The disturbance of one pass, as recorded in its result. */
struct pass_io {
	bool checked;               /* the snapshots were taken (false: nothing known) */
	char dev[64];               /* "" = device unknown: foreign I/O not checked */
	struct mu64 foreign_read_bytes, foreign_write_bytes; /* null: not checked */
	uint64_t own_bytes;         /* the pass's own bytes read + written */
	struct mu64 foreign_ios;    /* requests beyond the pass's own; null: own count unknown */
	uint64_t own_ios;           /* the pass's own I/Os (0: unknown) */
	struct mdbl io_some_pct_before; /* null: no /proc/pressure/io */
	struct mdbl steal_pct;      /* null: unknown */
	bool disturbed;
	char why[200];              /* disturbed: what was seen; else what was not checked */
};

/* --- pure helpers, unit-tested in tests/test_pass_io.c --- */

/* The line of name in /proc/diskstats text into *d; false when absent or malformed. */
bool pass_io_diskstats_find(const char *text, const char *name, struct pass_io_disk *d);
/* The "some ... total=" microseconds of /proc/pressure/io text; false when absent. */
bool pass_io_psi_some_total(const char *text, uint64_t *total_us);
/* max(0, dev - own - allowance). */
uint64_t pass_io_foreign(uint64_t dev_bytes, uint64_t own_bytes, uint64_t allowance);
/* The allowance for own bytes and n fdatasync() calls (PASS_IO_META_*). */
uint64_t pass_io_allowance(uint64_t own_bytes, uint64_t nsyncs);
/*
 * Sets p->disturbed and p->why from p's figures (foreign bytes, own bytes,
 * io pressure, steal) against the PASS_IO_* bounds; the why names the
 * device and the amounts, e.g. "foreign I/O on vda during the pass: 412 MB
 * written beside the pass's 80 MB". Not disturbed and a device unknown:
 * why says foreign I/O was not checked.
 */
void pass_io_decide(struct pass_io *p);

/* --- live snapshots --- */

/* The diskstats device of the filesystem holding path (root prefixes /proc, /sys). */
void pass_io_dev_for(const char *root, const char *path, struct pass_io_dev *d);
/* The quiet window (sleeps PASS_IO_QUIET_MS), then the counters: right before the pass. */
void pass_io_begin(const char *root, const struct pass_io_dev *d, struct pass_io_snap *s);
/*
 * The counters right after the pass, the figures and the decision into
 * out; frees s. own_read/own_write: the pass's bytes; nsyncs: its
 * fdatasync()/fsync() calls (for the allowance); own_ios: its I/Os when
 * each is one request to the device, else 0 (foreign requests not judged).
 */
void pass_io_end(const char *root, const struct pass_io_dev *d, struct pass_io_snap *s,
		 uint64_t own_read, uint64_t own_write, uint64_t nsyncs, uint64_t own_ios,
		 struct pass_io *out);
/* Frees s without a result (the pass failed). */
void pass_io_drop(struct pass_io_snap *s);

#endif
