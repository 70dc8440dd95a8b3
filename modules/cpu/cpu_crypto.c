/*
 * cpu_crypto.c — AES-256-GCM and SHA-256 through OpenSSL's EVP interface,
 * the work `openssl speed -elapsed -evp aes-256-gcm -bytes 16384` and
 * `openssl speed -evp sha256` time (OpenSSL 3.0.20+). GCM is an AEAD mode,
 * so openssl speed encrypts each 16 KiB buffer as one message: IV length,
 * key and IV set (the key schedule runs every time), one in-place
 * EVP_EncryptUpdate, EVP_EncryptFinal_ex for the tag. One cipher context
 * per thread does the same here (with a fresh IV per message, which costs
 * nothing and keeps it proper GCM). SHA-256 is one EVP_Digest per buffer.
 * Without libcrypto the module says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_crypto.h"

#ifdef HAVE_LIBCRYPTO
#include <openssl/err.h>
#include <openssl/evp.h>

struct aes_state {
	EVP_CIPHER_CTX *c;
	unsigned char key[32], iv[12];
	uint64_t msgs;
	unsigned char *buf;
};

static void ssl_err(char *err, size_t n, const char *what)
{
	unsigned long e = ERR_get_error();
	char s[120];

	ERR_error_string_n(e, s, sizeof(s));
	snprintf(err, n, "%s failed: %s", what, e ? s : "unknown error");
}

static void aes_fini(void *st)
{
	struct aes_state *a = st;

	if (!a)
		return;
	EVP_CIPHER_CTX_free(a->c);
	free(a->buf);
	free(a);
}

static int aes_init(void **st, const void *arg, char *err, size_t n)
{
	struct aes_state *a = calloc(1, sizeof(*a));

	(void)arg;
	if (!a || !(a->buf = calloc(1, CPU_CRYPTO_BUF + 16))) {
		snprintf(err, n, "cannot allocate the AES buffer");
		free(a);
		return -1;
	}
	*st = a;
	for (unsigned i = 0; i < sizeof(a->key); i++)
		a->key[i] = (unsigned char)(i * 7 + 1);
	for (unsigned i = 0; i < CPU_CRYPTO_BUF; i++)
		a->buf[i] = (unsigned char)(i * 31);
	a->c = EVP_CIPHER_CTX_new();
	if (!a->c || EVP_EncryptInit_ex(a->c, EVP_aes_256_gcm(), NULL, a->key, a->iv) != 1) {
		ssl_err(err, n, "EVP_EncryptInit_ex(aes-256-gcm)");
		return -1;
	}
	return 0;
}

static int aes_unit(void *st, const void *arg, uint64_t *count, char *err, size_t n)
{
	struct aes_state *a = st;
	int outl = 0, tagl = 0;

	(void)arg;
	a->msgs++;
	memcpy(a->iv, &a->msgs, sizeof(a->msgs));
	if (EVP_CIPHER_CTX_ctrl(a->c, EVP_CTRL_AEAD_SET_IVLEN, (int)sizeof(a->iv), NULL) != 1 ||
	    EVP_EncryptInit_ex(a->c, NULL, NULL, a->key, a->iv) != 1) {
		ssl_err(err, n, "EVP_EncryptInit_ex (key and IV)");
		return -1;
	}
	if (EVP_EncryptUpdate(a->c, a->buf, &outl, a->buf, (int)CPU_CRYPTO_BUF) != 1) {
		ssl_err(err, n, "EVP_EncryptUpdate");
		return -1;
	}
	if (EVP_EncryptFinal_ex(a->c, a->buf + outl, &tagl) != 1) {
		ssl_err(err, n, "EVP_EncryptFinal_ex");
		return -1;
	}
	*count += (uint64_t)outl;
	return 0;
}

struct sha_state {
	EVP_MD *md; /* fetched once: no implicit fetch per digest */
	unsigned char *buf;
};

static void sha_fini(void *st)
{
	struct sha_state *s = st;

	if (!s)
		return;
	EVP_MD_free(s->md);
	free(s->buf);
	free(s);
}

static int sha_init(void **st, const void *arg, char *err, size_t n)
{
	struct sha_state *s = calloc(1, sizeof(*s));

	(void)arg;
	if (!s || !(s->buf = calloc(1, CPU_CRYPTO_BUF))) {
		snprintf(err, n, "cannot allocate the SHA buffer");
		free(s);
		return -1;
	}
	*st = s;
	for (unsigned i = 0; i < CPU_CRYPTO_BUF; i++)
		s->buf[i] = (unsigned char)(i * 13);
	s->md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!s->md) {
		ssl_err(err, n, "EVP_MD_fetch(SHA256)");
		return -1;
	}
	return 0;
}

static int sha_unit(void *st, const void *arg, uint64_t *count, char *err, size_t n)
{
	struct sha_state *s = st;
	unsigned char md[EVP_MAX_MD_SIZE];

	(void)arg;
	if (EVP_Digest(s->buf, CPU_CRYPTO_BUF, md, NULL, s->md, NULL) != 1) {
		ssl_err(err, n, "EVP_Digest(sha256)");
		return -1;
	}
	s->buf[0] ^= md[0]; /* the next buffer depends on this digest */
	*count += CPU_CRYPTO_BUF;
	return 0;
}

static const struct cpu_work aes_work = { aes_init, aes_unit, aes_fini, NULL };
static const struct cpu_work sha_work = { sha_init, sha_unit, sha_fini, NULL };

const struct cpu_work *cpu_crypto_aes_gcm(void) { return &aes_work; }
const struct cpu_work *cpu_crypto_sha256(void) { return &sha_work; }
const char *cpu_crypto_unavailable(void) { return NULL; }

#else

const struct cpu_work *cpu_crypto_aes_gcm(void) { return NULL; }
const struct cpu_work *cpu_crypto_sha256(void) { return NULL; }
const char *cpu_crypto_unavailable(void) { return "built without libcrypto"; }

#endif
