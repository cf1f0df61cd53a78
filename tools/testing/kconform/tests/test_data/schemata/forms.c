// SPDX-License-Identifier: GPL-2.0
/*
 * Every form of schemata.py and what falls back, in C that compiles
 * alone (gcc -fsyntax-only): the switched file must too.
 */
#define EINVAL 22
#define EOPNOTSUPP 95
#define FLAG_A 1
#define FLAG_B 2

struct demo {
	int count;
	int flags;
	int *slots;
};

void demo_put(struct demo *d);
int demo_get(struct demo *d, int a, int b);

int demo_forms(struct demo *d, int lo, int hi)
{
	int i, sum = 0;
	int span = hi - lo;
	int size[2];

	if (!d || lo > hi)
		return -EINVAL;
	for (i = 0; i < span; i++) {
		if (d->slots[i] == 1)
			sum += 2;
		else
			sum -= 1;
	}
	while (d->count > 3)
		d->count--;
	switch (d->flags & FLAG_A) {
	case 1:
		d->flags |= FLAG_B;
		break;
	default:
		break;
	}
	if (lo == 1) sum++;
	else sum--;
	size[0] = demo_get(d,
			   lo < 1, hi);
	size[1] = sum;
	demo_put(d);
out:
	return size[0] > 0 && size[1] != 1 ? -EOPNOTSUPP : 0;
}

int demo_more(struct demo *d, int lo)
{
	int first = demo_get(d,
			     lo > 2, 0);
	first += demo_get(d, /* a comment in a statement */
			  lo > 3, 1);
	return first;
}

#define __init	/* the kernel's .init.text: run once, at boot */
int __init demo_init(struct demo *d)
{
	return demo_get(d, 1, 2) > 0 ? 0 : -EINVAL;
}

int demo_pick(int lo, int hi)
{
	int x;

	x = lo > hi ?
	    lo :
	    hi + 1;
	return x;
}
