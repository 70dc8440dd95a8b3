/*
 * labels.c — checking and storing --label NAME / --label key=value.
 */
#include <stdio.h>
#include <string.h>

#include "labels.h"

static bool label_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == ':' || c == '=' || c == '-';
}

bool label_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > LABEL_MAX_LEN)
		return false;
	for (; *s; s++)
		if (!label_char(*s))
			return false;
	return true;
}

int labels_add(struct bench_labels *l, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t klen;

	if (strlen(arg) > LABEL_MAX_LEN) {
		snprintf(err, errlen, "--label '%.64s...' is %zu bytes; at most %d", arg, strlen(arg),
			 LABEL_MAX_LEN);
		return -1;
	}
	if (!label_valid(arg)) {
		snprintf(err, errlen, "--label '%s': use only letters, digits and _ . : = -", arg);
		return -1;
	}
	if (!eq) {
		if (l->name[0]) {
			snprintf(err, errlen, "--label %s: the node already has the name '%s' "
				 "(one NAME, any number of key=value)", arg, l->name);
			return -1;
		}
		snprintf(l->name, sizeof(l->name), "%s", arg);
		return 0;
	}
	klen = (size_t)(eq - arg);
	if (klen == 0 || !eq[1]) {
		snprintf(err, errlen, "--label '%s': key=value needs both a key and a value", arg);
		return -1;
	}
	if (l->n >= LABEL_MAX_PAIRS) {
		snprintf(err, errlen, "--label: more than %d key=value labels", LABEL_MAX_PAIRS);
		return -1;
	}
	for (unsigned i = 0; i < l->n; i++) {
		if (strlen(l->key[i]) == klen && !strncmp(l->key[i], arg, klen)) {
			snprintf(err, errlen, "--label %s: key '%s' given twice", arg, l->key[i]);
			return -1;
		}
	}
	memcpy(l->key[l->n], arg, klen);
	l->key[l->n][klen] = '\0';
	snprintf(l->val[l->n], sizeof(l->val[l->n]), "%s", eq + 1);
	l->n++;
	return 0;
}

bool labels_any(const struct bench_labels *l)
{
	return l->name[0] || l->n;
}
