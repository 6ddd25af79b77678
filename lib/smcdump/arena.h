/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arena.h - memory that lives as long as its owner (the connection table
 * of conn.c, the streams and range nodes of track.c), private to
 * lib/smcdump
 */
#ifndef SMCDUMP_ARENA_H
#define SMCDUMP_ARENA_H

#include <stddef.h>

struct dump_chunk;

/**
 * struct dump_arena - zeroed chunks of anonymous memory, objects carved
 *	from them with no per-object header and freed all at once
 * @chunks: the chunks, newest first
 * @next_size: bytes of the next chunk (0: the smallest)
 *
 * Chunks double from 64 KiB to 16 MiB; big ones ask for transparent huge
 * pages, so that 200k connections cost a few hundred page faults, not
 * tens of thousands. An all-zero struct is an empty arena.
 */
struct dump_arena {
	struct dump_chunk *chunks;
	size_t next_size;
};

void *dump_arena_alloc(struct dump_arena *a, size_t size);
void dump_arena_free(struct dump_arena *a);

#endif /* SMCDUMP_ARENA_H */
