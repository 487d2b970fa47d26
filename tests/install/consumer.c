/* SPDX-License-Identifier: MIT */
/* A program outside the project, built against the installed tree. */
#include <stdio.h>
#include <string.h>

#include <fastsha/sha1.h>

int main(void)
{
	uint8_t d[FASTSHA1_DIGEST_SIZE];
	char hex[41];
	fastsha1("abc", 3, d);
	for (int i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	printf("%s fastsha %s backend %s\n", hex, fastsha_version(), fastsha1_backend());
	return strcmp(hex, "a9993e364706816aba3e25717850c26c9cd0d89d") != 0;
}
