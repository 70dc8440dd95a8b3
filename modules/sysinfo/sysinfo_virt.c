/*
 * sysinfo_virt.c — container and hypervisor detection from passive
 * signals only (files, CPUID). A container wins over the hypervisor for
 * `virt`; both are kept. When no signal decides, the answer is unknown:
 * bench.sh's fallback to "Dedicated" misreported many VPSes.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "sysinfo_priv.h"

struct evidence {
	char *buf;
	size_t n;
};

static void note(struct evidence *ev, const char *fmt, const char *arg)
{
	size_t len = strlen(ev->buf);
	char tmp[96];

	if (len + 3 >= ev->n)
		return;
	snprintf(tmp, sizeof(tmp), fmt, arg);
	snprintf(ev->buf + len, ev->n - len, "%s%s", len ? "; " : "", tmp);
}

static const struct { const char *sig, *name; } cpuid_sigs[] = {
	{ "KVMKVMKVM", "kvm" },        { "Linux KVM Hv", "kvm" },   { "Microsoft Hv", "microsoft" },
	{ "VMwareVMware", "vmware" },  { "XenVMMXenVMM", "xen" },   { "TCGTCGTCGTCG", "qemu" },
	{ "bhyve bhyve", "bhyve" },    { "lrpepyh  vr", "parallels" }, { "ACRNACRNACRN", "acrn" },
	{ "VBoxVBoxVBox", "oracle" },  { "QNXQVMBSQG", "qnx" },
};

/* Substrings of DMI sys_vendor / product_name / bios_vendor. */
static const struct { const char *sub, *name; } dmi_sigs[] = {
	{ "Amazon EC2", "amazon" },  { "Google", "google" },       { "KVM", "kvm" },
	{ "QEMU", "qemu" },          { "VMware", "vmware" },       { "VMW", "vmware" },
	{ "innotek GmbH", "oracle" }, { "VirtualBox", "oracle" },  { "Xen", "xen" },
	{ "Bochs", "bochs" },        { "Parallels", "parallels" }, { "BHYVE", "bhyve" },
	{ "Firecracker", "firecracker" }, { "Apple Virtualization", "apple" },
	{ "Cloud Hypervisor", "cloud-hypervisor" },
};

/* CPUID leaf 0x40000000 vendor: live CPUID, or the fixture file. */
static bool cpuid_vendor(const char *root, char *sig, size_t n)
{
	sig[0] = '\0';
	if (root[0])
		return si_read_line(root, "/fixture/cpuid_hypervisor", sig, n) > 0;
#if defined(__x86_64__) || defined(__i386__)
	{
		unsigned a, b, c, d;
		char s[13];

		if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
			return false; /* no hypervisor bit */
		__cpuid(0x40000000, a, b, c, d);
		memcpy(s, &b, 4);
		memcpy(s + 4, &c, 4);
		memcpy(s + 8, &d, 4);
		s[12] = '\0';
		si_copy(sig, n, si_trim(s));
		return sig[0] != '\0';
	}
#else
	return false;
#endif
}

/* A "container=" entry of a NUL-separated environment block. */
static bool environ_container(const char *root, char *out, size_t n)
{
	char buf[16384];
	long len = si_read(root, "/proc/1/environ", buf, sizeof(buf));

	for (long i = 0; len > 0 && i < len; i += (long)strlen(buf + i) + 1) {
		if (strncmp(buf + i, "container=", 10) == 0 && buf[i + 10]) {
			size_t k = 0;

			for (const char *p = buf + i + 10; *p && k + 1 < n; p++)
				out[k++] = isalnum((unsigned char)*p) || *p == '-' ? *p : '_';
			out[k] = '\0';
			return k > 0;
		}
	}
	return false;
}

static const char *cgroup_container(const char *root, const char *rel)
{
	char buf[8192];

	if (si_read(root, rel, buf, sizeof(buf)) <= 0)
		return NULL;
	if (strstr(buf, "libpod"))
		return "podman";
	if (strstr(buf, "/docker") || strstr(buf, "docker-"))
		return "docker";
	if (strstr(buf, "/lxc/") || strstr(buf, "lxc.payload"))
		return "lxc";
	if (strstr(buf, "kubepods"))
		return "kubernetes";
	return NULL;
}

static bool lxcfs_mounted(const char *root)
{
	char line[4096];
	bool found = false;
	FILE *f = si_fopen(root, "/proc/self/mountinfo");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " - fuse.lxcfs ") != NULL;
	fclose(f);
	return found;
}

static bool container(const char *root, const char *kernel, char *out, size_t n,
		      struct evidence *ev)
{
	char val[32];
	const char *c;

	if (environ_container(root, val, sizeof(val))) {
		si_copy(out, n, strncmp(val, "lxc", 3) == 0 ? "lxc" : val);
		note(ev, "/proc/1/environ container=%s", val);
	} else if (si_exists(root, "/run/.containerenv")) {
		si_copy(out, n, "podman");
		note(ev, "%s", "/run/.containerenv");
	} else if (si_exists(root, "/.dockerenv")) {
		si_copy(out, n, "docker");
		note(ev, "%s", "/.dockerenv");
	} else if ((si_exists(root, "/proc/vz") || si_exists(root, "/proc/user_beancounters")) &&
		   !si_exists(root, "/proc/bc")) {
		/* the OpenVZ host node has /proc/bc too */
		si_copy(out, n, "openvz");
		note(ev, "%s", "/proc/user_beancounters without /proc/bc");
	} else if (kernel[0] && (strstr(kernel, "microsoft") || strstr(kernel, "Microsoft") ||
				 strstr(kernel, "WSL"))) {
		si_copy(out, n, "wsl");
		note(ev, "kernel %s", kernel);
	} else if ((c = cgroup_container(root, "/proc/1/cgroup")) ||
		   (c = cgroup_container(root, "/proc/self/cgroup"))) {
		si_copy(out, n, c);
		note(ev, "cgroup path names %s", c);
	} else if (lxcfs_mounted(root)) {
		si_copy(out, n, "lxc");
		note(ev, "%s", "lxcfs mounted");
	} else {
		return false;
	}
	return true;
}

static bool dt_has_node(const char *root, const char *prefix)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (!si_path(path, sizeof(path), root, "/proc/device-tree"))
		return false;
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = strncmp(de->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return found;
}

/* Firecracker has no DMI tables and uses virtio-mmio devices or its VMGenID. */
static bool firecracker_signs(const char *root)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (si_exists(root, "/sys/class/dmi/id/sys_vendor"))
		return false;
	if (!si_path(path, sizeof(path), root, "/sys/bus/platform/devices"))
		return false;
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = strncmp(de->d_name, "virtio_mmio", 11) == 0 ||
			strncmp(de->d_name, "AMZNC10C", 8) == 0;
	closedir(d);
	return found;
}

/* The hypervisor: "" unknown, "none" only with positive evidence. */
static void hypervisor(const char *root, char *out, size_t n, struct evidence *ev)
{
	static const char *const dmi_files[] = {
		"/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name",
		"/sys/class/dmi/id/bios_vendor",
	};
	char sig[32], buf[256], dmi_all[800], flags[8192], line[8192];
	const char *dmi = NULL, *cpuid = NULL;
	bool dmi_read = false, have_flags = false, hv_flag = false;
	FILE *f;

	if (cpuid_vendor(root, sig, sizeof(sig))) {
		for (size_t i = 0; i < sizeof(cpuid_sigs) / sizeof(cpuid_sigs[0]); i++)
			if (strcmp(sig, cpuid_sigs[i].sig) == 0)
				cpuid = cpuid_sigs[i].name;
		note(ev, "cpuid %s", sig);
	}
	/* all three joined, matched in priority order: ARM KVM guests say
	 * sys_vendor "QEMU" but product "KVM Virtual Machine" */
	dmi_all[0] = '\0';
	for (size_t k = 0; k < 3; k++) {
		if (si_read_line(root, dmi_files[k], buf, sizeof(buf)) < 0)
			continue;
		dmi_read = true;
		snprintf(dmi_all + strlen(dmi_all), sizeof(dmi_all) - strlen(dmi_all), "%s%s",
			 dmi_all[0] ? " / " : "", buf);
	}
	for (size_t i = 0; i < sizeof(dmi_sigs) / sizeof(dmi_sigs[0]) && !dmi; i++)
		if (strstr(dmi_all, dmi_sigs[i].sub)) {
			dmi = dmi_sigs[i].name;
			note(ev, "dmi %s", dmi_all);
		}
	/* Hyper-V: sys_vendor "Microsoft Corporation", product "Virtual Machine" */
	if (!dmi && si_read_line(root, dmi_files[1], buf, sizeof(buf)) > 0 &&
	    strcmp(buf, "Virtual Machine") == 0 &&
	    si_read_line(root, dmi_files[0], buf, sizeof(buf)) > 0 &&
	    strcmp(buf, "Microsoft Corporation") == 0) {
		dmi = "microsoft";
		note(ev, "%s", "dmi Microsoft Virtual Machine");
	}
	f = si_fopen(root, "/proc/cpuinfo");
	if (f) {
		while (!have_flags && fgets(line, sizeof(line), f)) {
			char *key, *val;

			if (si_split_kv(line, &key, &val) && strcmp(key, "flags") == 0) {
				si_copy(flags, sizeof(flags), val);
				have_flags = true;
				hv_flag = si_has_word(flags, "hypervisor");
			}
		}
		fclose(f);
	}

	if (cpuid) {
		/* the CPUID names the hypervisor; DMI names the cloud */
		if (strcmp(cpuid, "kvm") == 0 && dmi &&
		    (strcmp(dmi, "amazon") == 0 || strcmp(dmi, "google") == 0))
			cpuid = dmi;
		else if (strcmp(cpuid, "kvm") == 0 && !dmi_read && firecracker_signs(root)) {
			cpuid = "firecracker";
			note(ev, "%s", "no DMI, virtio-mmio/VMGenID devices");
		}
		si_copy(out, n, cpuid);
		return;
	}
	if (dmi) {
		si_copy(out, n, dmi);
		return;
	}
	if (si_read_line(root, "/sys/hypervisor/type", buf, sizeof(buf)) > 0) {
		note(ev, "/sys/hypervisor/type %s", buf);
		si_copy(out, n, strcmp(buf, "xen") == 0 ? "xen" : "");
		if (out[0])
			return;
	}
	/* ARM guests: the device tree tells */
	if (si_read(root, "/proc/device-tree/hypervisor/compatible", buf, sizeof(buf)) > 0) {
		note(ev, "device-tree hypervisor %s", buf);
		if (strstr(buf, "kvm"))
			si_copy(out, n, "kvm");
		else if (strstr(buf, "xen"))
			si_copy(out, n, "xen");
		else if (strstr(buf, "vmware"))
			si_copy(out, n, "vmware");
		if (out[0])
			return;
	}
	if (si_read(root, "/proc/device-tree/compatible", buf, sizeof(buf)) > 0 &&
	    strcmp(buf, "linux,dummy-virt") == 0) {
		/* QEMU's virt machine has fw-cfg and PCIe; Firecracker has neither */
		if (dt_has_node(root, "fw-cfg")) {
			si_copy(out, n, "qemu");
			note(ev, "%s", "device-tree linux,dummy-virt with fw-cfg");
		} else if (!dt_has_node(root, "pcie")) {
			si_copy(out, n, "firecracker");
			note(ev, "%s", "device-tree linux,dummy-virt without fw-cfg or PCIe");
		} else {
			note(ev, "%s", "device-tree linux,dummy-virt");
		}
		return;
	}
	if (hv_flag) {
		note(ev, "%s", "cpu flag hypervisor, type not identified");
		return;
	}
	/* bare metal only when the x86 flags and DMI both speak and say nothing */
	if (have_flags && dmi_read && !si_exists(root, "/sys/hypervisor/type")) {
		note(ev, "%s", "no hypervisor flag, no virtual DMI vendor");
		si_copy(out, n, "none");
	}
}

void si_virt(const char *root, const char *kernel, struct sysinfo *si)
{
	struct evidence ev = { si->virt_evidence, sizeof(si->virt_evidence) };
	char ct[24] = "";

	si->virt_evidence[0] = '\0';
	container(root, kernel, ct, sizeof(ct), &ev);
	hypervisor(root, si->hypervisor, sizeof(si->hypervisor), &ev);
	/* WSL 2 runs in Hyper-V */
	if (strcmp(ct, "wsl") == 0 && !si->hypervisor[0])
		si_copy(si->hypervisor, sizeof(si->hypervisor), "microsoft");
	si_copy(si->virt, sizeof(si->virt), ct[0] ? ct : si->hypervisor);
}
