/*
 * test_storage.c — which mount a directory is on when mountinfo's paths
 * do not match (chroot, container), the storage class of a filesystem,
 * and that figures of a directory that is not a device are not graded.
 * Fixture trees in tests/fixtures/ stand in for /proc and /sys;
 * fixture/dir_stat ("MAJ:MIN MAGIC MOUNTPOINT") for stat(), statfs() and
 * the walk up to the mount point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fsinfo.h"
#include "grade/grade.h"
#include "report/report.h"
#include "th.h"

static struct fs_info fi; /* large: keep it off the stack */

static const struct fs_info *lookup(const char *name)
{
	char root[4096];

	snprintf(root, sizeof(root), "%s/tests/fixtures/%s", th_srcdir(), name);
	TH_EQ_INT(fsinfo_for_path(root, "/", &fi), 0);
	return &fi;
}

TH_TEST(fsinfo_chroot_found_by_st_dev)
{
	/* only the chroot's /usr bind mount shares the device; "/" is not listed */
	const struct fs_info *f = lookup("chroot_ext4");

	TH_CHECK(f->mount_known);
	TH_CHECK(f->mount_by_dev);
	TH_EQ_STR(f->fstype, "ext4");
	TH_EQ_STR(f->device, "/dev/vda");
	TH_EQ_STR(f->blockdev, "vda");
	TH_EQ_STR(f->mountpoint, "/");   /* the walk up, not the /usr entry's point */
	TH_EQ_INT(f->storage.cls, STORAGE_DEVICE);
}

TH_TEST(fsinfo_container_st_dev_beats_path)
{
	/* "/" path-matches the overlay; st_dev says the volume's ext4 */
	const struct fs_info *f = lookup("container_ext4");

	TH_CHECK(f->mount_by_dev);
	TH_EQ_STR(f->fstype, "ext4");
	TH_EQ_STR(f->device, "/dev/vdb1");
	TH_EQ_STR(f->blockdev, "vdb1");
	TH_EQ_STR(f->mountpoint, "/");
	TH_EQ_INT(f->storage.cls, STORAGE_DEVICE);
}

TH_TEST(fsinfo_no_entry_named_by_f_type)
{
	const struct fs_info *f = lookup("chroot_tmpfs");

	TH_CHECK(f->mount_known);
	TH_CHECK(!f->mount_by_dev);
	TH_EQ_STR(f->fstype, "tmpfs");
	TH_EQ_STR(f->device, "");        /* 0:45 is no block device: unknown, not made up */
	TH_EQ_STR(f->mountpoint, "/");
	TH_EQ_INT(f->storage.cls, STORAGE_MEMORY);
	TH_CHECK(!storage_class_graded(f->storage.cls));
}

TH_TEST(fsinfo_zfs_before_2_3_is_cached)
{
	const struct fs_info *f = lookup("zfs_22");

	TH_EQ_STR(f->fstype, "zfs");
	TH_EQ_STR(f->device, "rpool/ROOT/pve-1");
	TH_EQ_INT(f->storage.cls, STORAGE_CACHED);
	TH_CHECK(strstr(f->storage.why, "2.2.6") && strstr(f->storage.why, "ARC"));
}

TH_TEST(fsinfo_path_match_kept_without_dir_stat)
{
	/* an older fixture tree without fixture/dir_stat: by path, as before */
	const struct fs_info *f = lookup("kvm_vps");

	TH_EQ_STR(f->fstype, "ext4");
	TH_EQ_STR(f->mountpoint, "/");
	TH_EQ_INT(f->storage.cls, STORAGE_DEVICE);
}

/* Among the mounts of the directory's device, the one whose mount point is
 * the longest prefix of the path: a bind mount of a directory of the same
 * filesystem elsewhere (/run/netns after `ip netns add`), listed before and
 * after "/", is not the answer; one on a prefix of the path is. */
static const struct fs_info *lookup_at(const char *name, const char *dir)
{
	char root[4096];

	snprintf(root, sizeof(root), "%s/tests/fixtures/%s", th_srcdir(), name);
	TH_EQ_INT(fsinfo_for_path(root, dir, &fi), 0);
	return &fi;
}

TH_TEST(fsinfo_same_dev_bind_elsewhere_is_not_the_mount)
{
	const struct fs_info *f = lookup_at("bind_same_dev", "/tmp");

	TH_CHECK(f->mount_by_dev);
	TH_EQ_STR(f->mountpoint, "/");
	TH_EQ_STR(f->options, "rw,relatime");  /* the "/" entry's, not /run/netns's */
	f = lookup_at("bind_same_dev", "/run");
	TH_EQ_STR(f->mountpoint, "/");         /* a parent of a bind mount is not in it */
}

TH_TEST(fsinfo_same_dev_bind_on_a_prefix_is_the_mount)
{
	const struct fs_info *f = lookup_at("bind_prefix_dev", "/tmp");

	TH_CHECK(f->mount_by_dev);
	TH_EQ_STR(f->mountpoint, "/tmp");
	TH_EQ_STR(f->options, "rw,noatime");
	f = lookup_at("bind_prefix_dev", "/");
	TH_EQ_STR(f->mountpoint, "/");
	TH_EQ_STR(f->options, "rw,relatime");
}

TH_TEST(storage_class_table)
{
	static const struct {
		unsigned long magic;
		const char *fstype, *zfs;
		enum storage_class want;
	} cases[] = {
		{ 0x01021994UL, "tmpfs", "", STORAGE_MEMORY },
		{ 0x01021994UL, "", "", STORAGE_MEMORY },
		{ 0x858458f6UL, "ramfs", "", STORAGE_MEMORY },
		{ 0, "tmpfs", "", STORAGE_MEMORY },          /* no statfs: by name */
		{ 0x0000ef53UL, "ext4", "", STORAGE_DEVICE },
		{ 0x58465342UL, "xfs", "", STORAGE_DEVICE },
		{ 0x9123683eUL, "btrfs", "", STORAGE_DEVICE },
		{ 0x2fc12fc1UL, "zfs", "2.1.11-1", STORAGE_CACHED },
		{ 0x2fc12fc1UL, "zfs", "2.2.6-pve1", STORAGE_CACHED },
		{ 0x2fc12fc1UL, "zfs", "2.3.0-1", STORAGE_DEVICE },
		{ 0x2fc12fc1UL, "zfs", "", STORAGE_DEVICE }, /* version unknown: not guessed */
		{ 0x00006969UL, "nfs4", "", STORAGE_NETWORK },
		{ 0xff534d42UL, "cifs", "", STORAGE_NETWORK },
		{ 0x01021997UL, "9p", "", STORAGE_NETWORK },
		{ 0x65735546UL, "virtiofs", "", STORAGE_NETWORK },
		{ 0x65735546UL, "fuse.sshfs", "", STORAGE_NETWORK },
		{ 0x65735546UL, "fuse.fuse-overlayfs", "", STORAGE_UNKNOWN },
		{ 0x65735546UL, "fuseblk", "", STORAGE_DEVICE },
		{ 0x794c7630UL, "overlay", "", STORAGE_UNKNOWN },
		{ 0x12345678UL, "", "", STORAGE_UNKNOWN },
	};
	char why[192];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum storage_class c = storage_class_of(cases[i].magic, cases[i].fstype, cases[i].zfs,
							why, sizeof(why));

		if (c != cases[i].want)
			th_fail(__FILE__, __LINE__, "%#lx %s %s: %s, want %s", cases[i].magic,
				cases[i].fstype, cases[i].zfs, storage_class_name(c),
				storage_class_name(cases[i].want));
		TH_CHECK(why[0] != '\0');
	}
	TH_CHECK(storage_class_graded(STORAGE_DEVICE));
	TH_CHECK(storage_class_graded(STORAGE_UNKNOWN));
	TH_CHECK(!storage_class_graded(STORAGE_MEMORY));
	TH_CHECK(!storage_class_graded(STORAGE_CACHED));
	TH_CHECK(!storage_class_graded(STORAGE_NETWORK));
}

/* A finished report: seq done in one dir, a usable qd64 and a qd1 rand pass. */
static struct bench_report *report(enum storage_class cls)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));

	if (!rep)
		return NULL;
	rep->outcome[MOD_seq].status = BENCH_OK;
	rep->seq.ndirs = 1;
	rep->seq.dirs[0].status = SEQ_DONE;
	rep->seq.dirs[0].avg_mbps = mdbl_of(1500);
	rep->seq.dirs[0].total_mbps = mdbl_of(1500); /* the graded figure */
	rep->seq.dirs[0].read.mbps = mdbl_of(3000);
	rep->seq.dirs[0].read.direct = MB_TRUE;
	rep->seq.dirs[0].storage.cls = cls;
	snprintf(rep->seq.dirs[0].storage.why, sizeof(rep->seq.dirs[0].storage.why), "tmpfs: RAM");
	rep->outcome[MOD_rand].status = BENCH_OK;
	rep->rand.npass = 2;
	for (unsigned i = 0; i < 2; i++) {
		struct rand_pass_result *p = &rep->rand.pass[i];

		snprintf(p->name, sizeof(p->name), i ? "randread-4k-qd1" : "randrw-4k-qd64");
		p->rw = i ? RW_RANDREAD : RW_RANDRW;
		p->bs = 4096;
		p->iodepth = i ? 1 : 64;
		p->direct = true;
		p->status = BENCH_OK;
		p->runtime_ms = 5000;
		p->storage.cls = cls;
		for (int d = 0; d < 2; d++) {
			p->dir_res[d].present = d == 0 || !i;
			p->dir_res[d].total_ios = 500000;
			p->dir_res[d].iops = 100000;
			for (int k = 0; k < LAT_NPCT; k++)
				p->dir_res[d].clat_pct[k] = 1500;
		}
	}
	return rep;
}

TH_TEST(grade_skips_storage_that_is_not_a_device)
{
	static const char *const names[] = { "seq_write_mbps", "seq_read_mbps", "rand_iops",
					     "lat_p50_ms", "lat_p99_ms" };
	static const enum storage_class not_graded[] = { STORAGE_MEMORY, STORAGE_CACHED,
							 STORAGE_NETWORK };
	struct metric_set *ms = calloc(1, sizeof(*ms));
	struct bench_report *rep;

	TH_CHECK(ms != NULL);
	for (size_t c = 0; ms && c < 3; c++) {
		rep = report(not_graded[c]);
		TH_CHECK(rep != NULL);
		if (!rep)
			break;
		grade_collect(rep, NULL, ms);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			const struct metric *m = metric_get(ms, names[i]);

			TH_CHECK(m && !m->measured && m->selected);
			if (m && !strstr(m->why_not, storage_class_name(not_graded[c])))
				th_fail(__FILE__, __LINE__, "%s: why_not \"%s\"", names[i], m->why_not);
		}
		free(rep);
	}
	/* the same figures on a device (or storage that cannot be told) are graded */
	for (int c = 0; ms && c < 2; c++) {
		rep = report(c ? STORAGE_UNKNOWN : STORAGE_DEVICE);
		if (!rep)
			break;
		grade_collect(rep, NULL, ms);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			const struct metric *m = metric_get(ms, names[i]);

			TH_CHECK(m && m->measured);
		}
		free(rep);
	}
	free(ms);
}
