/* SPDX-License-Identifier: MIT */
/* Placeholder: the fastsha command is being written (issue 4). */
#include <stdio.h>
#include "fastsha/sha1.h"
int main(void)
{
	printf("fastsha %s (%s)\n", fastsha_version(), fastsha1_backend());
	return 0;
}
