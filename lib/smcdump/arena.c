// SPDX-License-Identifier: GPL-2.0
/*
 * arena.c - memory that lives as long as its owner (arena.h)
 */
#include <stddef.h>
#include <sys/mman.h>

#include "arena.h"

struct dump_chunk {
	struct dump_chunk *next;
	size_t used;
	size_t size;		/* bytes mapped, this header included */
	unsigned char mem[];
};

#define CHUNK_MIN	(64u << 10)
#define CHUNK_MAX	(16u << 20)
#define CHUNK_HUGE	(2u << 20)

/**
 * dump_arena_alloc() - zeroed memory from an arena
 * @a: the arena
 * @size: bytes wanted; the memory is 8-byte aligned (no structure kept
 *	in an arena needs more)
 *
 * Return: the memory, valid until dump_arena_free(); NULL when memory
 * ran out.
 */
void *dump_arena_alloc(struct dump_arena *a, size_t size)
{
	struct dump_chunk *ch = a->chunks;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!ch || ch->size - sizeof(*ch) - ch->used < size) {
		size_t n = a->next_size ? a->next_size : CHUNK_MIN;

		if (n < sizeof(*ch) + size)
			n = sizeof(*ch) + size;
		ch = mmap(NULL, n, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ch == MAP_FAILED)
			return NULL;
		if (n >= CHUNK_HUGE)
			madvise(ch, n, MADV_HUGEPAGE);	/* a hint */
		ch->size = n;
		ch->next = a->chunks;
		a->chunks = ch;
		if (a->next_size < CHUNK_MAX)
			a->next_size = n * 2;
	}
	p = ch->mem + ch->used;
	ch->used += size;
	return p;
}

/**
 * dump_arena_free() - free all memory of an arena; it is empty after
 * @a: the arena
 */
void dump_arena_free(struct dump_arena *a)
{
	while (a->chunks) {
		struct dump_chunk *ch = a->chunks;

		a->chunks = ch->next;
		munmap(ch, ch->size);
	}
	a->next_size = 0;
}
