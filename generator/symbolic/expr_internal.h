/* expr_internal.h — the program's records, shared by the builder (expr.c) and the C
 * printer (expr_print.c) only: every other stage goes through expr.h. */
#ifndef CDYNGEN_EXPR_INTERNAL_H
#define CDYNGEN_EXPR_INTERNAL_H

#include "symbolic/expr_print.h"

typedef enum { OP_INPUT, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_SIN, OP_COS } expr_op;

typedef struct {
    expr_op op;
    ex a, b;     /* operands (b unused for unary ops) */
    char *name;  /* OP_INPUT only */
    char *ident; /* OP_INPUT only: the temporary's name (expr_name_input), or NULL: tN */
} expr_node;

typedef struct {
    char *target;
    ex value;
    int placed; /* expr_store_here: printed from its comment record, not after value */
} expr_store_rec;

/* What is printed between nodes: comments, a barrier, or what is placed the same way: C
 * statements (COMMENT_CODE, printed as given) and stores made by expr_store_here. */
typedef enum {
    COMMENT_BLOCK,
    COMMENT_SECTION,
    COMMENT_BARRIER,
    COMMENT_CODE,
    COMMENT_STORE
} comment_kind;

typedef struct {
    char *text; /* "" for a barrier or a store; lines of C for COMMENT_CODE */
    int mark;   /* number of nodes when the comment was made */
    comment_kind kind;
    int store; /* COMMENT_STORE: the index in stores */
} expr_comment_rec;

struct expr_prog {
    expr_node *nodes;
    int nnodes, capnodes;
    int *table; /* open-addressing hash of node indices, -1 = empty */
    size_t tabcap;
    expr_store_rec *stores;
    int nstores, capstores;
    expr_comment_rec *comments;
    int ncomments, capcomments;
    expr_print_rules rules; /* expr_set_print_rules; all NULL: none */
    int failed;
};

#endif
