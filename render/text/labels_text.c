/*
 * labels_text.c — the --label identity as one line of text.
 */
#include <stdio.h>
#include <string.h>

#include "render/render.h"

void labels_join(char *buf, size_t n, const struct bench_labels *l)
{
	size_t used = 0;

	if (!n)
		return;
	buf[0] = '\0';
	if (l->name[0])
		used += (size_t)snprintf(buf, n, "%s", l->name);
	for (unsigned i = 0; i < l->n && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s=%s", used ? ", " : "",
					 l->key[i], l->val[i]);
}
