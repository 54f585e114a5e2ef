/*
 * compile.c - ptxas over a module at each cap, `jobs` compiles at once, each
 * from the cache where it holds it. Every compile is one
 *
 *   ptxas -arch=sm_XX -v [--maxrregcount N] IN.ptx -o TMP/cN.cubin
 *
 * whose stdout and stderr (the -v log is on stderr) are kept whole: the
 * run reads the resources out of them with libocc-inspect's ptxas log
 * reader, and the setmaxnreg checks read ptxas's messages.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regs_internal.h"

/* The --version text is a few lines; more is not a ptxas. */
#define VERSION_MAX_BYTES 4096

static char *temp_output(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (path != NULL) {
        snprintf(path, n, "%s/%s", dir, name);
    }
    return path;
}

occ_status regs_toolkit_open(regs_toolkit *tk, const char *given, occ_inspect_error *err)
{
    memset(tk, 0, sizeof *tk);
    occ_status status = regs_find_tool("ptxas", given, getenv("CUDA_HOME"), getenv("PATH"),
                                       "/usr/local/cuda/bin", &tk->ptxas, err);
    if (status != OCC_OK) {
        return status;
    }
    const char *tmp_root = getenv("TMPDIR");
    char dir_template[512];
    snprintf(dir_template, sizeof dir_template, "%s/occ-regs-version-XXXXXX",
             tmp_root != NULL && tmp_root[0] == '/' ? tmp_root : "/tmp");
    if (mkdtemp(dir_template) == NULL) {
        regs_toolkit_close(tk);
        return regs_fail(err, OCC_ERR_IO, "cannot create a temporary directory in %.300s",
                         tmp_root != NULL ? tmp_root : "/tmp");
    }
    char *out = temp_output(dir_template, "version.txt");
    const char *argv[] = {tk->ptxas, "--version", NULL};
    int exit_status = 0;
    size_t size = 0;
    status = out != NULL ? regs_run_program(argv, out, &exit_status, err)
                         : regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    if (status == OCC_OK) {
        status = regs_read_file(out, VERSION_MAX_BYTES, &tk->ptxas_version, &size, err);
    }
    if (out != NULL) {
        remove(out);
    }
    rmdir(dir_template);
    free(out);
    if (status == OCC_OK && (exit_status != 0 || strstr(tk->ptxas_version, "ptxas") == NULL)) {
        status = regs_fail(err, OCC_ERR_IO,
                           "%.300s does not answer --version as ptxas does (exit status %d)",
                           tk->ptxas, exit_status);
    }
    if (status != OCC_OK) {
        regs_toolkit_close(tk);
        return status;
    }
    /* "Cuda compilation tools, release 13.0, V13.0.88" */
    const char *v = strstr(tk->ptxas_version, ", V");
    if (v != NULL) {
        size_t n = strcspn(v + 2, "\r\n ");
        snprintf(tk->release, sizeof tk->release, "%.*s", (int)(n < 31 ? n : 31), v + 2);
    } else {
        snprintf(tk->release, sizeof tk->release, "unknown");
    }
    return OCC_OK;
}

void regs_toolkit_close(regs_toolkit *tk)
{
    free(tk->ptxas);
    free(tk->ptxas_version);
    tk->ptxas = NULL;
    tk->ptxas_version = NULL;
}

/* The arguments beside the files, as the key and the command line share them. */
static int compile_args(const char *arch, const regs_compile *c, char *buf, size_t cap)
{
    if (c->cap > 0) {
        return snprintf(buf, cap, "-arch=%s -v --maxrregcount %d", arch, c->cap);
    }
    return snprintf(buf, cap, "-arch=%s -v", arch);
}

void regs_compile_key(const regs_toolkit *tk, const char *arch, const regs_compile *c, char key[65])
{
    regs_sha256 h;
    regs_sha256_init(&h);
    static const char tag[] = "occ regs compile 1";
    char args[128];
    int n = compile_args(arch, c, args, sizeof args);
    /* each part with its length, so that no two different lists of parts
       hash alike */
    const char *parts[] = {tag, tk->ptxas_version, args};
    size_t sizes[] = {sizeof tag - 1, strlen(tk->ptxas_version), (size_t)n};
    for (int i = 0; i < 3; i++) {
        char len[32];
        int m = snprintf(len, sizeof len, "%zu:", sizes[i]);
        regs_sha256_update(&h, len, (size_t)m);
        regs_sha256_update(&h, parts[i], sizes[i]);
    }
    char len[32];
    int m = snprintf(len, sizeof len, "%zu:", c->ptx_size);
    regs_sha256_update(&h, len, (size_t)m);
    regs_sha256_update(&h, c->ptx, c->ptx_size);
    regs_sha256_hex(&h, key);
}

typedef struct pool {
    const regs_toolkit *tk;
    const char *arch;
    regs_compile *compiles;
    int count;
    const char *cache_dir;
    const char *tmp_dir;
    occ_regs_progress_fn progress;
    void *progress_context;
    pthread_mutex_t lock;
    int next; /* the next compile to take */
    int done;
    regs_compile_counts counts;
    bool failed;
    occ_inspect_error error;
} pool;

/* One compile, run now: ptxas writes its log into a file of tmp_dir. */
static occ_status run_ptxas(pool *p, int index, regs_compile *c, occ_inspect_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "c%d.log", index);
    char *log_path = temp_output(p->tmp_dir, name);
    snprintf(name, sizeof name, "c%d.cubin", index);
    char *cubin_path = temp_output(p->tmp_dir, name);
    char arch_arg[48], cap_arg[16];
    snprintf(arch_arg, sizeof arch_arg, "-arch=%s", p->arch);
    snprintf(cap_arg, sizeof cap_arg, "%d", c->cap);
    const char *argv[10];
    int n = 0;
    argv[n++] = p->tk->ptxas;
    argv[n++] = arch_arg;
    argv[n++] = "-v";
    if (c->cap > 0) {
        argv[n++] = "--maxrregcount";
        argv[n++] = cap_arg;
    }
    argv[n++] = c->ptx_path;
    argv[n++] = "-o";
    argv[n++] = cubin_path;
    argv[n] = NULL;
    occ_status status = log_path != NULL && cubin_path != NULL
                            ? regs_run_program(argv, log_path, &c->exit_status, err)
                            : regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    if (status == OCC_OK) {
        status = regs_read_file(log_path, (size_t)64 << 20, &c->log, &c->log_size, err);
    }
    if (status == OCC_OK && c->want_cubin && c->exit_status == 0) {
        status = regs_read_file(cubin_path, (size_t)1 << 30, &c->cubin, &c->cubin_size, err);
    }
    if (log_path != NULL) {
        remove(log_path);
    }
    if (cubin_path != NULL) {
        remove(cubin_path);
    }
    free(log_path);
    free(cubin_path);
    return status;
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int index = p->failed || p->next >= p->count ? -1 : p->next++;
        pthread_mutex_unlock(&p->lock);
        if (index < 0) {
            return NULL;
        }
        regs_compile *c = &p->compiles[index];
        char key[65];
        regs_compile_key(p->tk, p->arch, c, key);
        occ_inspect_error err;
        occ_status status = OCC_OK;
        regs_cache_entry entry;
        c->cached =
            p->cache_dir != NULL && regs_cache_get(p->cache_dir, key, c->want_cubin, &entry);
        if (c->cached) {
            c->log = entry.log;
            c->log_size = entry.log_size;
            c->exit_status = entry.exit_status;
            c->cubin = entry.cubin;
            c->cubin_size = entry.cubin_size;
        } else {
            status = run_ptxas(p, index, c, &err);
            if (status == OCC_OK && p->cache_dir != NULL) {
                entry = (regs_cache_entry){c->log, c->log_size, c->exit_status, c->cubin,
                                           c->cubin_size};
                regs_cache_put(p->cache_dir, key, &entry);
            }
        }
        pthread_mutex_lock(&p->lock);
        if (status != OCC_OK && !p->failed) {
            p->failed = true;
            p->error = err;
        }
        if (status == OCC_OK) {
            p->done++;
            if (c->cached) {
                p->counts.cache_hits++;
            } else {
                p->counts.ptxas_runs++;
            }
            if (p->progress != NULL) {
                p->progress(p->progress_context, p->done, p->count, c->cached);
            }
        }
        pthread_mutex_unlock(&p->lock);
    }
}

occ_status regs_compile_all(const regs_toolkit *tk, const char *arch, regs_compile *compiles,
                            int count, int jobs, const char *cache_dir, const char *tmp_dir,
                            occ_regs_progress_fn progress, void *progress_context,
                            regs_compile_counts *counts, occ_inspect_error *err)
{
    pool p = {.tk = tk,
              .arch = arch,
              .compiles = compiles,
              .count = count,
              .cache_dir = cache_dir,
              .tmp_dir = tmp_dir,
              .progress = progress,
              .progress_context = progress_context};
    pthread_mutex_init(&p.lock, NULL);
    if (jobs > count) {
        jobs = count;
    }
    pthread_t threads[OCC_REGS_MAX_JOBS];
    int started = 0;
    for (int i = 1; i < jobs; i++) {
        if (pthread_create(&threads[started], NULL, worker, &p) != 0) {
            break; /* fewer threads: the rest still runs */
        }
        started++;
    }
    worker(&p);
    for (int i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
    }
    pthread_mutex_destroy(&p.lock);
    counts->ptxas_runs += p.counts.ptxas_runs;
    counts->cache_hits += p.counts.cache_hits;
    if (p.failed) {
        if (err != NULL) {
            *err = p.error;
        }
        return p.error.status;
    }
    return OCC_OK;
}

int regs_min_cap_from_log(const char *log, size_t size)
{
    static const char phrase[] = "to lower bound of ";
    size_t n = sizeof phrase - 1;
    for (size_t i = 0; i + n < size; i++) {
        if (memcmp(log + i, phrase, n) == 0) {
            int v = 0;
            for (size_t j = i + n; j < size && log[j] >= '0' && log[j] <= '9' && v < 1000; j++) {
                v = v * 10 + (log[j] - '0');
            }
            return v;
        }
    }
    return 0;
}
