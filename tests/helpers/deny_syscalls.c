/*
 * deny_syscalls.c — test helper: installs a seccomp filter that fails the
 * named system calls with EPERM (as Docker's default profile does for
 * io_uring_setup/enter/register), then execs the command.
 *   deny_syscalls io_uring_setup,io_setup -- ./vpsbench ...
 * Raw BPF, no libseccomp: x86_64 and aarch64 only.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "deny_syscalls: x86_64 or aarch64 only"
#endif

static const struct {
	const char *name;
	int nr;
} known[] = {
	{ "io_uring_setup", __NR_io_uring_setup },
	{ "io_uring_enter", __NR_io_uring_enter },
	{ "io_uring_register", __NR_io_uring_register },
	{ "io_setup", __NR_io_setup },
	{ "io_submit", __NR_io_submit },
};

int main(int argc, char **argv)
{
	struct sock_filter f[64];
	struct sock_fprog prog;
	unsigned n = 0;
	char list[256], *tok, *save;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: %s SYSCALL[,SYSCALL...] -- COMMAND [ARG...]\n", argv[0]);
		return 2;
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	snprintf(list, sizeof(list), "%s", argv[1]);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(tok, known[i].name))
				break;
		if (i == sizeof(known) / sizeof(known[0]) || n + 3 > sizeof(f) / sizeof(f[0])) {
			fprintf(stderr, "deny_syscalls: unknown or too many: %s\n", tok);
			return 2;
		}
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)known[i].nr, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("deny_syscalls: prctl(PR_SET_NO_NEW_PRIVS)");
		return 2;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		perror("deny_syscalls: prctl(PR_SET_SECCOMP)");
		return 2;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "deny_syscalls: exec %s: %s\n", argv[3], strerror(errno));
	return 127;
}
