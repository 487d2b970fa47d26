/* SPDX-License-Identifier: MIT */
/*
 * Batches from several threads while another thread switches backends.
 *
 * fastsha.h promises that fastsha_use_backend() may be called while other
 * threads hash, because every backend of a family keeps the same state: a
 * batch may start on one lane row and finish its last messages on another
 * row of the family, a PBKDF2 chain may change kernel between iterations.
 * The batch entry points are where that promise is hardest to keep (the
 * lane scheduler reads the batch slot once per batch, the single-message
 * slot for each finishing compression, and keeps a plan of lane rows),
 * and test_threads only races the one-message calls on one pinned row.
 *
 * From a cold start (no call into the library before the barrier: CPU
 * detection, the slots, the lane plan, SHA1DC's and the mac code's first
 * uses all race), THREADS workers run a fixed list of jobs, each thread
 * from its own place in the list: fastsha_many() of mixed lengths (and of
 * equal whole-block lengths, the shared-schedule path) for every
 * algorithm, fastsha_many_xof() for the XOFs, fastsha_hmac_many() under
 * one prepared key per algorithm shared by every thread,
 * fastsha_pbkdf2_many() with few iterations, and fastsha_k12() of
 * messages of several 8 KiB chunks, whose leaves run on the lanes. One
 * more thread pins, in every family in turn, each backend this CPU runs
 * (lane rows included) and then goes back to automatic choice.
 *
 * Every result is compared with the answer computed beforehand one message
 * at a time on the portable backend, in a child process, so that this
 * process still starts cold. What is checked does not depend on timing:
 * the switcher keeps a row pinned until one whole job of that family has
 * run under it (an epoch per family, read by the workers before and after
 * each job), and the workers go on until every family has been through
 * every row and back to automatic choice at least once, so every row this
 * CPU runs carries work while the other threads race. Then the switcher
 * runs free, as fast as it can, for FREE_ROUNDS more rounds of each
 * worker: switches in the middle of batches everywhere, and in the window
 * between fastsha_use_backend()'s two stores. Only how the calls
 * interleave varies from run to run. At the end the automatic rows must
 * be back, and every job must give the same answers on them once more.
 *
 * usage: test_threads_switch
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "fastsha/mac.h"

#define THREADS 4
#define FREE_ROUNDS 16 /* each worker's rounds through the list once switching runs free */
#define MAX_ROUNDS 500 /* a switcher that never finishes its cycle: fail, not hang */
#define POOL (192u << 10)
#define MAXMSGS 4096
#define NFAM 4
#define CHUNK 8192
#define OUTMAX (1u << 16) /* one job's output, all its messages */

/*
 * Under ThreadSanitizer: the most history it keeps of each thread (an
 * environment's TSAN_OPTIONS still wins). With the default (clang 14's
 * history_size=2) the switcher's 10^5 switches wrap its history before
 * a worker's read of a slot meets one, and a race so found is dropped,
 * its earlier stack gone: a planted unordered store of the slots was
 * reported in 17 runs of 20, in every run with history_size=7.
 */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(TEST_TSAN)
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "history_size=7";
}
#endif

enum kind { MANY, MANY_XOF, HMAC_MANY, PBKDF2_MANY, K12 };
static const char *const kind_name[] = { "many", "many_xof", "hmac_many", "pbkdf2_many", "k12" };

struct job {
	enum kind kind;
	fastsha_alg alg;
	size_t n;                /* messages (passwords) */
	const fastsha_msg *msgs; /* into msgpool */
	const fastsha_msg *salts;
	size_t outlen;           /* output bytes per message */
	uint32_t iters;
	size_t customlen;        /* K12: its customisation string, at the pool's start */
	size_t off;              /* its answer at want + off, n * outlen bytes */
};

static uint8_t pool[POOL];
static fastsha_msg msgpool[MAXMSGS];
static size_t nmsgs;
static struct job jobs[256];
static size_t njobs, want_len;

/* What the child computes: each job's answer, and the rows automatic
 * choice takes here (FASTSHA_BACKEND honoured, as the switcher's NULL does). */
struct answers {
	char auto_one[NFAM][32], auto_many[NFAM][32];
	int failed;
	uint8_t want[]; /* want_len bytes */
};
static struct answers *ans;

/* One algorithm of each family (the switcher's handles), and the family
 * whose backends each algorithm runs on (fastsha.h, "Backends per
 * algorithm"). */
/* The families are testutil.h's test_families, in its order; their own
 * algorithm (fam_alg) is the one backends are switched through. */
#define fam_alg(f) (test_families[f].algs[0])
#define fam_name(f) (test_families[f].name)
_Static_assert(sizeof(test_families) / sizeof(test_families[0]) == NFAM, "one slot per family");

/* The family of @a: SHA1DC, on SHA-1's compression, is not in
 * test_families' lists (no other test runs it per family). */
static int fam_of(fastsha_alg a)
{
	for (int f = 0; f < NFAM; f++)
		for (size_t i = 0; i < test_families[f].nalgs; i++)
			if (test_families[f].algs[i] == a)
				return f;
	if (a == FASTSHA_SHA1DC)
		return 0;
	fprintf(stderr, "FAIL: %s is in no family of testutil.h\n", fastsha_alg_name(a));
	exit(1);
}

static const fastsha_alg mac_algs[] = { FASTSHA_SHA1,   FASTSHA_SHA224,     FASTSHA_SHA256,
					FASTSHA_SHA384, FASTSHA_SHA512,     FASTSHA_SHA512_224,
					FASTSHA_SHA512_256 };
#define NMAC (sizeof(mac_algs) / sizeof(mac_algs[0]))

/* The HMAC key of each algorithm: keylen bytes at pool + 64, one prepared
 * key shared by all threads, by whichever worker gets to it first. */
static size_t mac_keylen(fastsha_alg a)
{
	/* Shorter than a block, a whole block, longer (hashed first). */
	return fastsha_alg_block_size(a) + (size_t)(a % 3) * 37 - 37;
}
static fastsha_hmac_key keys[FASTSHA_ALG_COUNT];
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void prepare_keys(void)
{
	for (size_t i = 0; i < NMAC; i++)
		fastsha_hmac_key_init(&keys[mac_algs[i]], mac_algs[i], pool + 64,
				      mac_keylen(mac_algs[i]));
}

/* @n messages at random places of the pool (any alignment), all @len
 * bytes long or, for @len SIZE_MAX, of mixed lengths up to @max with one
 * in eight up to 4 KiB. */
static const fastsha_msg *messages(size_t n, size_t len, size_t max)
{
	if (nmsgs + n > MAXMSGS) {
		fprintf(stderr, "message pool too small\n");
		exit(1);
	}
	fastsha_msg *m = msgpool + nmsgs;
	for (size_t i = 0; i < n; i++) {
		size_t l = len;
		if (l == SIZE_MAX)
			l = prng() % 8 ? (size_t)(prng() % (max + 1)) : (size_t)(prng() % 4096);
		m[i].len = l;
		m[i].data = pool + prng() % (POOL - l + 1);
	}
	nmsgs += n;
	return m;
}

static void add(struct job j)
{
	if (njobs == sizeof(jobs) / sizeof(jobs[0]) || j.n * j.outlen > OUTMAX) {
		fprintf(stderr, "job list or output buffer too small\n");
		exit(1);
	}
	j.off = want_len;
	want_len += j.n * j.outlen;
	jobs[njobs++] = j;
}

/* The job list: a function of the seed only. */
static void make_jobs(void)
{
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		size_t bs = fastsha_alg_block_size((fastsha_alg)a);
		size_t ds = fastsha_alg_digest_size((fastsha_alg)a);
		/* Mixed lengths, 0 to 3 blocks and some to 4 KiB: every tail
		 * shape, lanes retiring at different times, the narrower rows
		 * and the single-stream finish. */
		add((struct job){ MANY, (fastsha_alg)a, 3 + prng() % 30, NULL, NULL, ds, 0, 0, 0 });
		jobs[njobs - 1].msgs = messages(jobs[njobs - 1].n, SIZE_MAX, 3 * bs);
		/* Equal whole-block lengths, n >= 4 L for every row here: the
		 * shared padding block's schedule. */
		add((struct job){ MANY, (fastsha_alg)a, 36, NULL, NULL, ds, 0, 0, 0 });
		jobs[njobs - 1].msgs = messages(36, bs * (1 + prng() % 2), 0);
		if (fastsha_alg_is_xof((fastsha_alg)a)) {
			/* ML-KEM's shape for SHAKE128 (34-byte seeds, three
			 * blocks out); mixed lengths, squeezes past the rate. */
			size_t n = 2 + prng() % 20;
			add((struct job){ MANY_XOF, (fastsha_alg)a, n, NULL, NULL,
					  a == FASTSHA_SHAKE128 ? 504 : 1 + prng() % 400, 0, 0, 0 });
			jobs[njobs - 1].msgs = messages(n, a == FASTSHA_SHAKE128 ? 34 : SIZE_MAX, 2 * bs);
		}
	}
	for (size_t i = 0; i < NMAC; i++) {
		fastsha_alg a = mac_algs[i];
		size_t bs = fastsha_alg_block_size(a), ds = fastsha_alg_digest_size(a);
		size_t n = 2 + prng() % 24;
		add((struct job){ HMAC_MANY, a, n, NULL, NULL, ds, 0, 0, 0 });
		jobs[njobs - 1].msgs = messages(n, SIZE_MAX, 3 * bs);
		/* Passwords past a block too (hashed first); three output
		 * blocks each, so the chains of a few passwords fill lanes. */
		n = 2 + prng() % 6;
		add((struct job){ PBKDF2_MANY, a, n, NULL, NULL, 2 * ds + 3, 2 + (uint32_t)(prng() % 3),
				  0, 0 });
		jobs[njobs - 1].msgs = messages(n, SIZE_MAX, bs + 20);
		jobs[njobs - 1].salts = messages(n, SIZE_MAX, 40);
	}
	/* KangarooTwelve: S_0 and whole leaves (a group of four and more on
	 * the lanes), a partial last leaf or none, with and without a
	 * customisation string. */
	static const size_t k12_len[] = { 5 * CHUNK + 777, 9 * CHUNK, 3 * CHUNK + 1 };
	for (size_t i = 0; i < 3; i++) {
		add((struct job){ K12, FASTSHA_K12, 1, NULL, NULL, i == 1 ? 32 : 100 + i, 0, 0, 0 });
		jobs[njobs - 1].msgs = messages(1, k12_len[i], 0);
		jobs[njobs - 1].customlen = i * 13;
	}
	/* Families interleaved: each family's jobs come often, so the
	 * switcher's rows each get a whole job soon. */
	for (size_t i = njobs - 1; i > 0; i--) {
		size_t k = (size_t)(prng() % (i + 1));
		struct job t = jobs[i];
		jobs[i] = jobs[k];
		jobs[k] = t;
	}
}

/* Job @j through the batch entry point into @out; 0 on success. */
static int run(const struct job *j, uint8_t *out)
{
	switch (j->kind) {
	case MANY:
		return fastsha_many(j->alg, j->msgs, j->n, out);
	case MANY_XOF:
		return fastsha_many_xof(j->alg, j->msgs, j->n, out, j->outlen);
	case HMAC_MANY:
		pthread_once(&keys_once, prepare_keys);
		return fastsha_hmac_many(&keys[j->alg], j->msgs, j->n, out);
	case PBKDF2_MANY:
		return fastsha_pbkdf2_many(j->alg, j->msgs, j->salts, j->n, j->iters, out,
					   j->outlen);
	case K12:
		fastsha_k12(j->msgs[0].data, j->msgs[0].len, pool, j->customlen, out, j->outlen);
		return 0;
	}
	return -1;
}

/* Job @j one message at a time, the plain way, into @out. */
static int run_one_by_one(const struct job *j, uint8_t *out)
{
	int r = 0;
	for (size_t i = 0; i < j->n; i++) {
		const fastsha_msg *m = &j->msgs[i];
		uint8_t *o = out + i * j->outlen;
		switch (j->kind) {
		case MANY:
			r |= fastsha_digest(j->alg, m->data, m->len, o);
			break;
		case MANY_XOF:
			r |= fastsha_xof(j->alg, m->data, m->len, o, j->outlen);
			break;
		case HMAC_MANY:
			r |= fastsha_hmac(j->alg, pool + 64, mac_keylen(j->alg), m->data, m->len, o);
			break;
		case PBKDF2_MANY:
			r |= fastsha_pbkdf2(j->alg, m->data, m->len, j->salts[i].data,
					    j->salts[i].len, j->iters, o, j->outlen);
			break;
		case K12:
			fastsha_k12(m->data, m->len, pool, j->customlen, o, j->outlen);
			break;
		}
	}
	return r;
}

/* The answers, in a child process: the automatic rows first (its first
 * calls), then every job on portable. Returns 0 when the child did it. */
static int compute_answers(void)
{
	fflush(stdout); /* the child's exit must not print the parent's buffer again */
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return -1;
	}
	if (pid == 0) {
		for (int f = 0; f < NFAM; f++) {
			snprintf(ans->auto_one[f], 32, "%s", fastsha_backend(fam_alg(f)));
			snprintf(ans->auto_many[f], 32, "%s", fastsha_many_backend(fam_alg(f)));
			if (fastsha_use_backend(fam_alg(f), "portable") != FASTSHA_SELECT_OK ||
			    strcmp(fastsha_many_backend(fam_alg(f)), "portable") != 0)
				ans->failed = 1;
		}
		for (size_t i = 0; i < njobs; i++)
			ans->failed |= run_one_by_one(&jobs[i], ans->want + jobs[i].off) != 0;
		_exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "the child computing the answers failed (status %d)\n", status);
		return -1;
	}
	return ans->failed ? -1 : 0;
}

/*
 * The switcher's bookkeeping, per family: @epoch rises after each switch
 * (release: a worker that reads it sees the slots stored before it); a
 * worker that read the same epoch before and after a job of the family
 * ran all of it under that row and raises @covered to it. The switcher
 * moves a family on only once @covered has caught up with @epoch. Epoch
 * 1 is the cold start's automatic choice.
 */
static _Atomic unsigned long epoch[NFAM] = { 1, 1, 1, 1 }, covered[NFAM];
static atomic_int cycled;       /* every family through its rows and back to automatic */
static atomic_int workers_done;
static pthread_barrier_t start;

/* What a worker saw go wrong, reported by the main thread (CHECK is not
 * thread-safe). */
struct miss {
	size_t job, msg;
	unsigned round;
	int refused;
};
static struct {
	unsigned rounds, nmiss;
	struct miss miss[8];
	uint8_t out[OUTMAX];
} wk[THREADS];

static void note(size_t t, size_t job, unsigned round, size_t msg, int refused)
{
	if (wk[t].nmiss < sizeof(wk[t].miss) / sizeof(wk[t].miss[0]))
		wk[t].miss[wk[t].nmiss] = (struct miss){ job, msg, round, refused };
	wk[t].nmiss++;
}

/* Compare job @k's result in @out with its answer; note a difference. */
static void check_job(size_t t, size_t k, unsigned round, int r, const uint8_t *out)
{
	const struct job *j = &jobs[k];
	if (r != 0) {
		note(t, k, round, 0, 1);
		return;
	}
	for (size_t i = 0; i < j->n; i++)
		if (memcmp(out + i * j->outlen, ans->want + j->off + i * j->outlen, j->outlen)) {
			note(t, k, round, i, 0);
			return;
		}
}

static void *worker(void *arg)
{
	size_t t = (size_t)(uintptr_t)arg;
	pthread_barrier_wait(&start);
	unsigned round = 0, free_from = MAX_ROUNDS;
	for (;; round++) {
		if (free_from == MAX_ROUNDS && atomic_load(&cycled))
			free_from = round;
		if (round >= free_from + FREE_ROUNDS || round >= MAX_ROUNDS)
			break;
		for (size_t i = 0; i < njobs; i++) {
			size_t k = (i + t * njobs / THREADS) % njobs; /* each from its own place */
			int f = fam_of(jobs[k].alg);
			unsigned long e0 = atomic_load_explicit(&epoch[f], memory_order_acquire);
			int r = run(&jobs[k], wk[t].out);
			unsigned long e1 = atomic_load_explicit(&epoch[f], memory_order_acquire);
			if (e0 == e1) {
				unsigned long c = atomic_load(&covered[f]);
				while (c < e0 && !atomic_compare_exchange_weak(&covered[f], &c, e0))
					;
			}
			check_job(t, k, round, r, wk[t].out);
		}
	}
	wk[t].rounds = round;
	return NULL;
}

/* Failures the switcher saw, reported by the main thread. */
static atomic_int switch_errors;
static unsigned long switches;

static void *switcher(void *arg)
{
	(void)arg;
	size_t cursor[NFAM] = { 0 }; /* the next row to pin; count: back to automatic */
	int wrapped[NFAM] = { 0 }, running_free = 0;
	pthread_barrier_wait(&start);
	/* Automatic choice, stored while the workers' first calls resolve the
	 * same slots (their first store must not undo it, nor it theirs). The
	 * rows are the same: no new epoch. */
	for (int f = 0; f < NFAM; f++)
		if (fastsha_use_backend(fam_alg(f), NULL) != FASTSHA_SELECT_OK)
			atomic_fetch_add(&switch_errors, 1);
	while (!atomic_load(&workers_done)) {
		int moved = 0;
		for (int f = 0; f < NFAM; f++) {
			fastsha_alg a = fam_alg(f);
			if (!running_free && atomic_load(&covered[f]) != atomic_load(&epoch[f]))
				continue; /* the row in place has not carried a whole job yet */
			size_t n = fastsha_backend_count(a);
			while (cursor[f] < n && !fastsha_backend_supported(a, cursor[f]))
				cursor[f]++;
			const char *name = cursor[f] < n ? fastsha_backend_name(a, cursor[f]) : NULL;
			if (fastsha_use_backend(a, name) != FASTSHA_SELECT_OK)
				atomic_fetch_add(&switch_errors, 1);
			/* Only this thread switches: the slots hold what it chose,
			 * and automatic choice is what it was in the child. */
			if (strcmp(fastsha_backend(a), name ? name : ans->auto_one[f]) != 0 ||
			    strcmp(fastsha_many_backend(a), name ? name : ans->auto_many[f]) != 0)
				atomic_fetch_add(&switch_errors, 1);
			/* Running free, no epochs: their release and the workers'
			 * acquire would order every switch before most of the
			 * workers' reads of the slots, and hide from
			 * ThreadSanitizer a switch that stores them unordered. */
			if (!running_free)
				atomic_fetch_add_explicit(&epoch[f], 1, memory_order_release);
			switches++;
			moved = 1;
			if (cursor[f] == n) {
				cursor[f] = 0;
				wrapped[f] = 1;
				if (!running_free && wrapped[0] && wrapped[1] && wrapped[2] && wrapped[3]) {
					running_free = 1;
					atomic_store(&cycled, 1);
				}
			} else {
				cursor[f]++;
			}
		}
		if (!moved)
			sched_yield(); /* few cores: leave them to the workers meanwhile */
	}
	for (int f = 0; f < NFAM; f++)
		if (fastsha_use_backend(fam_alg(f), NULL) != FASTSHA_SELECT_OK)
			atomic_fetch_add(&switch_errors, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: test_threads_switch\n");
		return 2;
	}
	prng_seed(0x5717c4);
	prng_fill(pool, POOL);
	make_jobs();
	ans = mmap(NULL, sizeof(*ans) + want_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		   -1, 0);
	if (ans == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (compute_answers())
		return 1;

	pthread_t th[THREADS], sw;
	pthread_barrier_init(&start, NULL, THREADS + 1);
	for (size_t t = 0; t < THREADS; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t)) {
			perror("pthread_create");
			return 1;
		}
	if (pthread_create(&sw, NULL, switcher, NULL)) {
		perror("pthread_create");
		return 1;
	}
	for (size_t t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	atomic_store(&workers_done, 1);
	pthread_join(sw, NULL);

	for (size_t t = 0; t < THREADS; t++) {
		CHECK(wk[t].rounds < MAX_ROUNDS, "thread %zu: %u rounds and the switcher not through",
		      t, wk[t].rounds);
		for (unsigned i = 0; i < wk[t].nmiss && i < 8; i++) {
			const struct miss *m = &wk[t].miss[i];
			const struct job *j = &jobs[m->job];
			CHECK(0, "thread %zu round %u: %s %s (job %zu, n %zu, outlen %zu) %s%zu%s", t,
			      m->round, kind_name[j->kind], fastsha_alg_name(j->alg), m->job, j->n,
			      j->outlen, m->refused ? "refused" : "message ", m->refused ? 0 : m->msg,
			      m->refused ? "" : " differs");
		}
		CHECK(wk[t].nmiss == 0, "thread %zu: %u wrong job(s) in all", t, wk[t].nmiss);
	}
	CHECK(atomic_load(&switch_errors) == 0, "%d switch(es) refused or not in place",
	      atomic_load(&switch_errors));
	/* Back on the rows automatic choice took in the child, and each job
	 * gives the answers there too, one thread now. */
	for (int f = 0; f < NFAM; f++) {
		CHECK(strcmp(fastsha_backend(fam_alg(f)), ans->auto_one[f]) == 0,
		      "%s: '%s' after switching, '%s' before", fam_name(f), fastsha_backend(fam_alg(f)),
		      ans->auto_one[f]);
		CHECK(strcmp(fastsha_many_backend(fam_alg(f)), ans->auto_many[f]) == 0,
		      "%s batches: '%s' after switching, '%s' before", fam_name(f),
		      fastsha_many_backend(fam_alg(f)), ans->auto_many[f]);
	}
	wk[0].nmiss = 0;
	for (size_t k = 0; k < njobs; k++)
		check_job(0, k, 0, run(&jobs[k], wk[0].out), wk[0].out);
	CHECK(wk[0].nmiss == 0, "%u job(s) wrong on the automatic rows afterwards", wk[0].nmiss);

	unsigned rounds = 0;
	for (size_t t = 0; t < THREADS; t++)
		rounds += wk[t].rounds;
	if (test_failures) {
		fprintf(stderr, "threads_switch: %d failure(s)\n", test_failures);
		return 1;
	}
	printf("threads_switch: ok, %d threads x %zu jobs, %u rounds in all, %lu switches\n",
	       THREADS, njobs, rounds, switches);
	return 0;
}
