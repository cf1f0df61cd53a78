#include <stdio.h>

static int twice(int x)
{
	if (x > 100)
		return -1;
	return 2 * x;
}

int main(int argc, char **argv)
{
	if (argc > 5)
		printf("many\n");
	printf("%d\n", twice(argc));
	return 0;
}
