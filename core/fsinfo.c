/*
 * fsinfo.c — longest mount point prefix in mountinfo, unescaping \040 etc.
 * The block device is named from the mount's major:minor through
 * /sys/dev/block, since the mount source can be "/dev/root" or a label.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "fsinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* "DEVNAME=vda1" from /sys/dev/block/MAJ:MIN/uevent; "" for non-block (overlay, tmpfs) */
static void block_name(const char *root, unsigned maj, unsigned min, char *out, size_t n)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u/uevent", root ? root : "", maj, min);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			size_t len = strcspn(line + 8, "\n");

			/* a name that does not fit is no name */
			if (len < n) {
				memcpy(out, line + 8, len);
				out[len] = '\0';
			}
			break;
		}
	}
	fclose(f);
}

static bool is_prefix_dir(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return true;
	return strncmp(mnt, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int fsinfo_for_path(const char *root, const char *dir, struct fs_info *fi)
{
	char mi_path[PATH_MAX], line[4096];
	struct statvfs st;
	size_t best = 0;
	unsigned best_maj = 0, best_min = 0;
	FILE *f;

	memset(fi, 0, sizeof(*fi));
	if (!realpath(dir, fi->path))
		return -errno;

	if (statvfs(fi->path, &st) == 0) {
		uint64_t fr = st.f_frsize ? st.f_frsize : st.f_bsize;

		fi->space_known = true;
		fi->total_bytes = (uint64_t)st.f_blocks * fr;
		fi->free_bytes = (uint64_t)st.f_bfree * fr;
		fi->avail_bytes = (uint64_t)st.f_bavail * fr;
		fi->used_bytes = fi->total_bytes - fi->free_bytes;
	}

	snprintf(mi_path, sizeof(mi_path), "%s/proc/self/mountinfo", root ? root : "");
	f = fopen(mi_path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], opts[256], fstype[64], src[256];
		char *sep = strstr(line, " - ");
		unsigned maj, min;
		size_t len;

		if (!sep)
			continue;
		if (sscanf(line, "%*s %*s %u:%u %*s %4095s %255s", &maj, &min, mnt, opts) != 4)
			continue;
		if (sscanf(sep + 3, "%63s %255s", fstype, src) != 2)
			continue;
		unescape(mnt);
		unescape(src);
		if (!is_prefix_dir(mnt, fi->path))
			continue;
		len = strlen(mnt);
		/* >= : a later mount on the same point shadows the earlier one */
		if (len >= best) {
			best = len;
			fi->mount_known = true;
			snprintf(fi->mountpoint, sizeof(fi->mountpoint), "%s", mnt);
			snprintf(fi->fstype, sizeof(fi->fstype), "%s", fstype);
			snprintf(fi->device, sizeof(fi->device), "%s", src);
			snprintf(fi->options, sizeof(fi->options), "%s", opts);
			best_maj = maj;
			best_min = min;
		}
	}
	fclose(f);
	if (fi->mount_known && best_maj != 0)
		block_name(root, best_maj, best_min, fi->blockdev, sizeof(fi->blockdev));
	return 0;
}
