/*
 * man_page.c - the roff writer of man_page.h.
 *
 * Text from the specs is escaped for troff: a backslash; a hyphen-minus,
 * written \- so that options stay ASCII '-' to copy and to search for in the
 * pager; quotes that troff would make typographic or read as macro-argument
 * delimiters; and a '.' opening a line, which troff would take for a request.
 * Non-ASCII UTF-8 becomes \[uXXXX], so groff reads the page without a
 * preprocessor. Lines of a description that start with a space (a table, a
 * list) are kept as written (.nf); the others are filled by the pager.
 *
 * The text cites the guides as the repository holds them, "docs/json.md";
 * given the folder they are installed in, a page cites them there.
 */
#include <ctype.h>
#include <string.h>

#include "man_page.h"

/* The code point of the UTF-8 sequence at s (at most len bytes) and its
   length; a broken sequence reads as U+FFFD, one byte long. */
static size_t utf8_decode(const unsigned char *s, size_t len, unsigned *code)
{
    size_t extra = s[0] >= 0xF0 ? 3 : s[0] >= 0xE0 ? 2 : s[0] >= 0xC0 ? 1 : 0;
    if (extra == 0 || extra >= len) {
        *code = 0xFFFD;
        return 1;
    }
    unsigned value = s[0] & (0x3Fu >> extra);
    for (size_t i = 1; i <= extra; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *code = 0xFFFD;
            return 1;
        }
        value = value << 6 | (s[i] & 0x3Fu);
    }
    *code = value;
    return extra + 1;
}

/* A character that can be part of a path: "docs/" after one is not a citation
   of the guides ("web/docs/", "my-docs/"). */
static bool in_path(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/';
}

static void put_escaped_as(FILE *out, const char *text, size_t len, bool fill,
                           const char *docs_dir);

/* A path troff may break after any '/' but the root (\:, no hyphen shown): a
   path longer than the rest of its line (an option's, the FILES tag under a
   long install prefix) would not fit otherwise. A trailing '/' is left out. */
static void put_breakable_path(FILE *out, const char *path)
{
    for (const char *p = path; *p != '\0';) {
        size_t part = strcspn(p, "/");
        put_escaped_as(out, p, part, false, NULL);
        p += part;
        if (*p == '/' && p[1] != '\0') {
            fputs(p == path ? "/" : "/\\:", out);
        }
        p += *p == '/';
    }
}

/* The guides' folder and a '/', in place of "docs/" (breakable as above). */
static void put_docs_dir(FILE *out, const char *docs_dir)
{
    put_breakable_path(out, docs_dir);
    fputs("/\\:", out);
}

/* `fill`: the text is filled by troff, which may then break a line after a
   comma that a letter follows (a CSV column list longer than the page).
   `docs_dir`: where "docs/" at the start of a path is to point; NULL keeps it. */
static void put_escaped_as(FILE *out, const char *text, size_t len, bool fill, const char *docs_dir)
{
    static const char docs[] = "docs/";
    const size_t docs_len = sizeof docs - 1;
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        if (docs_dir != NULL && len - i > docs_len && strncmp(text + i, docs, docs_len) == 0 &&
            (i == 0 || !in_path(s[i - 1]))) {
            put_docs_dir(out, docs_dir);
            i += docs_len;
            continue;
        }
        if (c >= 0x80) {
            unsigned code;
            i += utf8_decode(s + i, len - i, &code);
            fprintf(out, "\\[u%04X]", code);
            continue;
        }
        switch (c) {
        case '\\': fputs("\\e", out); break;
        case '-': fputs("\\-", out); break;
        case '\'': fputs("\\(aq", out); break;
        case '`': fputs("\\(ga", out); break;
        case '"': fputs("\\(dq", out); break;
        case ',': fputs(fill && i + 1 < len && isalpha(s[i + 1]) ? ",\\:" : ",", out); break;
        default: fputc(c, out); break;
        }
        i++;
    }
}

static void put_escaped(FILE *out, const char *text, size_t len)
{
    put_escaped_as(out, text, len, false, NULL);
}

/* One line of text; a leading '.' would be read as a request. */
static void put_line_as(FILE *out, const char *text, size_t len, bool fill, const char *docs_dir)
{
    if (len > 0 && text[0] == '.') {
        fputs("\\&", out);
    }
    put_escaped_as(out, text, len, fill, docs_dir);
    fputc('\n', out);
}

static void put_text_line(FILE *out, const char *text, size_t len, const char *docs_dir)
{
    put_line_as(out, text, len, false, docs_dir);
}

static void put_filled_line(FILE *out, const char *text, size_t len, const char *docs_dir)
{
    put_line_as(out, text, len, true, docs_dir);
}

/* .TH NAME 1 "" "occ VERSION" "occ manual", NAME in capitals. */
static void put_title(FILE *out, const char *page_name, const char *version)
{
    fputs(".TH ", out);
    for (const char *p = page_name; *p != '\0'; p++) {
        char upper = (char)toupper((unsigned char)*p);
        put_escaped(out, &upper, 1);
    }
    fputs(" 1 \"\" \"occ ", out);
    put_escaped(out, version, strlen(version));
    fputs("\" \"occ manual\"\n", out);
    /* Ragged right, no hyphenation: option names, paths and CSV column
       lists must print as written, and do not stretch a justified line. */
    fputs(".ad l\n.nh\n", out);
}

/* Paragraphs split by blank lines; lines starting with a space kept as
   written. The first paragraph follows its .SH without a .PP. */
static void put_paragraphs(FILE *out, const char *text, const char *docs_dir)
{
    bool nofill = false;
    bool paragraph_pending = false;
    for (const char *line = text; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        if (len == 0) {
            if (nofill) {
                fputs(".fi\n", out);
                nofill = false;
            }
            paragraph_pending = true;
        } else {
            if (paragraph_pending) {
                fputs(".PP\n", out);
                paragraph_pending = false;
            }
            bool indented = line[0] == ' ';
            if (indented != nofill) {
                fputs(indented ? ".nf\n" : ".fi\n", out);
                nofill = indented;
            }
            put_line_as(out, line, len, !nofill, docs_dir);
        }
        line += len + (line[len] == '\n');
    }
    if (nofill) {
        fputs(".fi\n", out);
    }
}

/* The usage lines, "occ NAME" in bold where a line starts with it. */
static void put_synopsis(FILE *out, const cli_help *help, const char *docs_dir)
{
    char command[64];
    snprintf(command, sizeof command, "occ %s", help->name);
    size_t command_len = strlen(command);
    fputs(".SH SYNOPSIS\n.nf\n", out);
    for (const char *line = help->usage; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        if (len >= command_len && strncmp(line, command, command_len) == 0 &&
            (len == command_len || line[command_len] == ' ')) {
            fputs("\\fB", out);
            put_escaped(out, command, command_len);
            fputs("\\fR", out);
            put_escaped_as(out, line + command_len, len - command_len, false, docs_dir);
            fputc('\n', out);
        } else {
            put_text_line(out, line, len, docs_dir);
        }
        line += len + (line[len] == '\n');
    }
    fputs(".fi\n", out);
}

static void put_options(FILE *out, const cli_command_spec *spec, const char *docs_dir)
{
    fputs(".SH OPTIONS\n", out);
    for (int t = 0; t < spec->table_count; t++) {
        for (int o = 0; o < spec->tables[t].count; o++) {
            const cli_option *opt = &spec->tables[t].options[o];
            fputs(".TP\n\\fB\\-\\-", out);
            put_escaped(out, opt->name, strlen(opt->name));
            fputs("\\fR", out);
            if (opt->metavar != NULL) {
                fputs(" \\fI", out);
                put_escaped(out, opt->metavar, strlen(opt->metavar));
                fputs("\\fR", out);
            }
            fputc('\n', out);
            put_filled_line(out, opt->help, strlen(opt->help), docs_dir);
        }
    }
}

static void put_examples(FILE *out, const char *examples, const char *docs_dir)
{
    fputs(".SH EXAMPLES\n.RS 4\n.nf\n", out);
    for (const char *line = examples; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        put_text_line(out, line, len, docs_dir);
        line += len + (line[len] == '\n');
    }
    fputs(".fi\n.RE\n", out);
}

/* The exit codes of cli.h, as docs/cli.md gives them. */
static void put_exit_status(FILE *out)
{
    fprintf(out,
            ".SH EXIT STATUS\n"
            ".TP\n%d\nsuccess.\n"
            ".TP\n%d\nbad data or a runtime failure: a file\\(aqs content, the GPU, the output.\n"
            ".TP\n%d\na bad command line: an unknown option, a bad value.\n",
            EXIT_OK, EXIT_DATA, EXIT_USAGE);
}

bool man_page_write_command(FILE *out, const cli_command_spec *spec, const man_page_info *info)
{
    const char *docs_dir = info->docs_dir;
    const cli_help *help = spec->help;
    char page_name[64];
    snprintf(page_name, sizeof page_name, "occ-%s", help->name);
    fprintf(out, ".\\\" Generated by occ-man from occ %s's option tables (cli/); do not edit.\n",
            help->name);
    put_title(out, page_name, info->version);
    fputs(".SH NAME\n", out);
    put_escaped(out, page_name, strlen(page_name));
    fputs(" \\- ", out);
    put_escaped_as(out, help->summary, strlen(help->summary), false, docs_dir);
    fputc('\n', out);
    put_synopsis(out, help, docs_dir);
    fputs(".SH DESCRIPTION\n", out);
    put_paragraphs(out, help->description, docs_dir);
    put_options(out, spec, docs_dir);
    if (help->examples != NULL) {
        put_examples(out, help->examples, docs_dir);
    }
    put_exit_status(out);
    fputs(".SH SEE ALSO\n\\fBocc\\fR(1)\n", out);
    return !ferror(out);
}

bool man_page_write_index(FILE *out, const man_page_info *info)
{
    fputs(".\\\" Generated by occ-man from occ's command table (cli/commands.c); do not edit.\n",
          out);
    put_title(out, "occ", info->version);
    fputs(".SH NAME\nocc \\- ", out);
    put_escaped(out, cli_tagline, strlen(cli_tagline));
    fputs("\n.SH SYNOPSIS\n.nf\n"
          "\\fBocc\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n"
          "\\fBocc help\\fR \\fIcommand\\fR\n"
          "\\fBocc\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR\n"
          "\\fBocc version\\fR\n"
          ".fi\n"
          ".SH DESCRIPTION\n"
          "occ computes CUDA occupancy as the CUDA driver does: how many blocks of a\n"
          "kernel stay resident on an SM, which resource limits them, and what would\n"
          "change that. It reads kernels\\(aq resources from \\fBptxas \\-v\\fR logs,\n"
          "cubins, fatbins and binaries, and measures on the GPU present what\n"
          "occupancy buys.\n"
          ".PP\n"
          "Each command has its own page, printed from the same tables as its\n"
          "\\fB\\-\\-help\\fR.\n"
          ".SH COMMANDS\n",
          out);
    for (int i = 0; i < cli_command_count(); i++) {
        const cli_help *help = cli_command_spec_at(i)->help;
        fputs(".TP\n\\fB", out);
        put_escaped(out, help->name, strlen(help->name));
        fputs("\\fR\n", out);
        put_filled_line(out, help->summary, strlen(help->summary), info->docs_dir);
    }
    put_exit_status(out);
    if (info->docs_dir != NULL) {
        fputs(".SH FILES\n.TP\n\\fI", out);
        put_breakable_path(out, info->docs_dir);
        fputs("\\fR\n"
              "occ\\(aqs guides in Markdown, which the pages cite by path: cli.md for\n"
              "the commands, json.md for their JSON, one guide per command family.\n",
              out);
    }
    fputs(".SH SEE ALSO\n", out);
    for (int i = 0; i < cli_command_count(); i++) {
        const char *name = cli_command_spec_at(i)->help->name;
        fputs(i == 0 ? "\\fBocc\\-" : ",\n\\fBocc\\-", out);
        put_escaped(out, name, strlen(name));
        fputs("\\fR(1)", out);
    }
    fputc('\n', out);
    return !ferror(out);
}
