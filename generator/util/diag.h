/* diag.h — the one shape of every message cdyngen prints for its user. */
#ifndef CDYNGEN_DIAG_H
#define CDYNGEN_DIAG_H

/* "cdyngen: " and the message on stderr, one line, control characters escaped. */
void diag_report(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
