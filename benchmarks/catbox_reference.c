/* Cat in the Box, 4 players, white side: uniformly random playouts in plain C, the yardstick
 * benchmarks/catbox_kernel_speed.py holds the compiled kernel against (a yardstick, not a
 * second engine: the default table only).
 *
 *   gcc -O2 -o catbox_reference catbox_reference.c && ./catbox_reference GAMES S0 S1
 *
 * Same rules (docs: shared rules file, §1-§7), same bit masks and the same random numbers as
 * games/catbox/kernel.py's playout: xoroshiro128+ from the state (S0, S1) that
 * kernel_rng.new_rng(seed) gives, `below` from its top 53 bits, a Fisher-Yates deal from the
 * end, the k-th legal play in the engine's order (colour by colour, numbers ascending). So the
 * action and paradox counts over the same games must equal the kernel's. Prints one line:
 * games, actions, paradoxes, the sum of every final score, CPU seconds, actions per second. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { P = 4, NUMBERS = 8, DEALT = 10, TRICKS = 8, COLUMNS = 9, OBSERVED = 1 << 9 };
static const int PREDICTIONS[3] = {1, 2, 3};

static uint64_t s0, s1;

static inline int below(int n) {
    uint64_t a = s0, b = s1, result = a + b;
    b ^= a;
    s0 = ((a << 24) | (a >> 40)) ^ b ^ (b << 16);
    s1 = (b << 37) | (b >> 27);
    return (int)((double)(result >> 11) * (1.0 / 9007199254740992.0) * n);
}

static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int nth_bit(uint64_t m, int k) {
    while (k--) m &= m - 1;
    return __builtin_ctzll(m);
}

typedef struct {
    uint64_t hands[P]; /* 4 bits per number: copies held */
    int held[P], xs[P], predictions[P], tricks[P], totals[P];
    uint64_t owned[P]; /* physical cells (row * COLUMNS + column) of own tokens */
    int taken[4];      /* per colour: numbers whose cell is not empty */
    int start, red_broken, tricks_done, trick_len, led, best_seat, best_key;
} Game;

static int largest_group(uint64_t cells) {
    const uint64_t full = (1ULL << (4 * COLUMNS)) - 1, first = 1 | 1ULL << 9 | 1ULL << 18 | 1ULL << 27;
    const uint64_t left = full & ~first, right = full & ~(first << (COLUMNS - 1));
    int best = 0;
    while (cells) {
        uint64_t group = cells & -cells, grown;
        for (;;) { /* grow the group of the lowest cell to its connected whole */
            grown = (group | (group << 1 & left) | (group >> 1 & right) | group << COLUMNS | group >> COLUMNS) & cells;
            if (grown == group) break;
            group = grown;
        }
        if (popcount(group) > best) best = popcount(group);
        cells &= ~group;
    }
    return best;
}

static inline int can_play(const Game *g, int s) {
    for (int c = 0; c < 4; c++)
        if ((g->xs[s] >> c & 1) && (g->held[s] & ~g->taken[c])) return 1;
    return 0;
}

/* One round from the deal to its scoring; the paradox seat, or -1. */
static int play_round(Game *g, long *actions) {
    int deck[P * DEALT], n = 0;
    for (int k = 1; k <= NUMBERS; k++)
        for (int c = 0; c < 5; c++) deck[n++] = k;
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1), t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    for (int s = 0; s < P; s++) {
        g->hands[s] = 0, g->held[s] = 0, g->owned[s] = 0, g->xs[s] = 15, g->tricks[s] = 0;
        for (int i = 0; i < DEALT; i++) {
            int card = deck[s * DEALT + i];
            g->hands[s] += 1ULL << (4 * card);
            g->held[s] |= 1 << card;
        }
    }
    for (int c = 0; c < 4; c++) g->taken[c] = OBSERVED;
    g->red_broken = g->tricks_done = 0;
    *actions += 1;
    for (int s = 0; s < P; s++) { /* discards, in seat order */
        int k = nth_bit(g->held[s], below(popcount(g->held[s])));
        g->hands[s] -= 1ULL << (4 * k);
        if (!(g->hands[s] >> (4 * k) & 15)) g->held[s] &= ~(1 << k);
    }
    for (int i = 0; i < P; i++) g->predictions[(g->start + i) % P] = PREDICTIONS[below(3)];
    *actions += 2 * P;
    int seat = g->start;
    g->trick_len = 0;
    for (;;) {
        if (!can_play(g, seat)) return seat; /* a paradox ends the round at once */
        int m[4], total = 0;
        for (int c = 0; c < 4; c++) m[c] = (g->xs[seat] >> c & 1) ? g->held[seat] & ~g->taken[c] : 0;
        if (!g->trick_len && !g->red_broken && (m[1] | m[2] | m[3])) m[0] = 0; /* no red lead yet */
        for (int c = 0; c < 4; c++) total += popcount(m[c]);
        int k = below(total), colour = 0;
        while (k >= popcount(m[colour])) k -= popcount(m[colour++]);
        int number = nth_bit(m[colour], k);
        *actions += 1;
        g->hands[seat] -= 1ULL << (4 * number);
        if (!(g->hands[seat] >> (4 * number) & 15)) g->held[seat] &= ~(1 << number);
        g->taken[colour] |= 1 << number;
        g->owned[seat] |= 1ULL << (colour * COLUMNS + number - 1);
        if (colour == 0) g->red_broken = 1;
        int key = colour == 0 ? 32 + number : 16 + number;
        if (g->trick_len == 0) g->led = colour, g->best_seat = seat, g->best_key = key;
        else {
            if (colour != g->led) key = colour == 0 ? key : 0, g->xs[seat] &= ~(1 << g->led);
            if (key > g->best_key) g->best_seat = seat, g->best_key = key;
        }
        if (++g->trick_len < P) {
            seat = (seat + 1) % P;
            continue;
        }
        g->tricks[g->best_seat]++;
        g->trick_len = 0;
        if (++g->tricks_done == TRICKS) return -1;
        seat = g->best_seat;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s GAMES S0 S1\n", argv[0]);
        return 2;
    }
    long games = atol(argv[1]), actions = 0, paradoxes = 0, points = 0;
    s0 = strtoull(argv[2], NULL, 10), s1 = strtoull(argv[3], NULL, 10);
    clock_t began = clock();
    for (long i = 0; i < games; i++) {
        Game g = {0};
        g.start = below(P);
        actions++;
        for (int round = 0; round < P; round++) {
            int paradox = play_round(&g, &actions);
            paradoxes += paradox >= 0;
            for (int s = 0; s < P; s++) {
                int won = g.tricks[s];
                int bonus = s != paradox && won == g.predictions[s] ? largest_group(g.owned[s]) : 0;
                g.totals[s] += s == paradox ? -won : won + bonus;
            }
            g.start = (g.start + 1) % P;
        }
        for (int s = 0; s < P; s++) points += g.totals[s];
    }
    double seconds = (double)(clock() - began) / CLOCKS_PER_SEC;
    printf("%ld %ld %ld %ld %.6f %.0f\n", games, actions, paradoxes, points, seconds, actions / seconds);
    return 0;
}
