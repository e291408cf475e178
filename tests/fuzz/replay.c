/*
 * replay.c - runs a fuzz target over every file of its corpus directories without
 * libFuzzer (any compiler), so `make check` proves each kept input still gives a status
 * and never crashes. Usage: replay DIR... (default: the directories compiled in).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 65536 > cap) {
            cap = cap * 2 + 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) abort();
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
#ifndef REPLAY_DIRS
#define REPLAY_DIRS ""
#endif
    char defaults[4096] = REPLAY_DIRS;
    char *dirs[64];
    int ndirs = 0;
    if (argc > 1) {
        for (int i = 1; i < argc && ndirs < 64; i++) dirs[ndirs++] = argv[i];
    } else {
        for (char *d = strtok(defaults, ":"); d && ndirs < 64; d = strtok(NULL, ":")) dirs[ndirs++] = d;
    }
    long files = 0;
    for (int i = 0; i < ndirs; i++) {
        DIR *dir = opendir(dirs[i]);
        if (!dir) {
            fprintf(stderr, "replay: cannot open %s\n", dirs[i]);
            return 1;
        }
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.') continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dirs[i], e->d_name);
            files += replay_file(path);
        }
        closedir(dir);
    }
    printf("replayed %ld inputs from %d directories without a crash\n", files, ndirs);
    return files > 0 ? 0 : 1;
}
