/*
 * cpu_crypto.h — the libcrypto work units: AES-256-GCM encryption and
 * SHA-256 digests of 16 KiB buffers, as `openssl speed -evp` runs them.
 */
#ifndef VPSBENCH_CPU_CRYPTO_H
#define VPSBENCH_CPU_CRYPTO_H

#include "cpu_pool.h"

/* NULL when built without libcrypto (then *why says so). */
const struct cpu_work *cpu_crypto_aes_gcm(void);
const struct cpu_work *cpu_crypto_sha256(void);
/* "built without libcrypto" or NULL */
const char *cpu_crypto_unavailable(void);

#endif
