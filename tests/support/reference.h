/* reference.h — reader for the Pinocchio reference vectors (format in
 * CDYN_SHARED_DIR/reference/README.md), for every test program that compares against them.
 *
 *   ref_file *f = ref_load(CDYN_SHARED_DIR "/reference/iiwa/unconstrained.txt");
 *   const ref_record *M = ref_get(f, 2, "M");          // state 2: M->rows x M->cols values
 *   const ref_record *g = ref_get(f, -1, "gravity_world"); // records before "# state 0"
 *   ref_free(f);
 *
 * Records are `<name> <rows> <cols> values...` (row-major); `# state k` opens state k.
 * The `joint`, `frame` and `contact` lines are parsed into structs; other non-record lines
 * (`robot iiwa`, `nq 7`, ...) are kept as key/value text. Host-side test code: it uses the
 * heap and never prints. */
#ifndef CDYN_TESTS_REFERENCE_H
#define CDYN_TESTS_REFERENCE_H

typedef struct {
    char *name;
    int rows, cols;
    double *v; /* rows * cols values, row-major */
} ref_record;

typedef struct {
    int id;            /* Pinocchio joint id, 1..njoints-1 (0 is the universe) */
    char *name, *type; /* URDF joint name, Pinocchio type ("JointModelRZ", ...) */
    int idx_q, nq, idx_v, nv;
    int parent; /* parent joint id, 0 = universe */
} ref_joint;

typedef struct {
    char *name;
    int id;            /* Pinocchio frame id */
    int parent_joint;  /* 0 = universe */
    double R[9], p[3]; /* placement in the parent joint frame, R row-major */
} ref_frame;

typedef struct {
    int index; /* position in the stacked constraint */
    int dim;   /* 3 or 6 */
    char *frame;
    int parent_joint;
} ref_contact;

typedef struct ref_file ref_file;

/* Loads a reference file; NULL if it cannot be read or a line is malformed. */
ref_file *ref_load(const char *path);
void ref_free(ref_file *f);

/* Number of `# state k` sections (k = 0 .. n-1). */
int ref_nstates(const ref_file *f);
/* The record `name` of state `state` (-1: the records before the first state), or NULL. */
const ref_record *ref_get(const ref_file *f, int state, const char *name);
/* Records of a state in file order. */
int ref_nrecords(const ref_file *f, int state);
const ref_record *ref_record_at(const ref_file *f, int state, int k);

/* The text after `key` on a non-record header line (`robot iiwa` -> "iiwa"), or NULL. */
const char *ref_header(const ref_file *f, const char *key);
/* The same read as an integer (`nv 7` -> 7), or `fallback` when absent. */
int ref_header_int(const ref_file *f, const char *key, int fallback);

/* `joint` lines in file (= Pinocchio) order. */
int ref_njoints(const ref_file *f);
const ref_joint *ref_joint_at(const ref_file *f, int k);
const ref_joint *ref_find_joint(const ref_file *f, const char *name);

/* `frame` lines in file order. */
int ref_nframes(const ref_file *f);
const ref_frame *ref_frame_at(const ref_file *f, int k);
const ref_frame *ref_find_frame(const ref_file *f, const char *name);

/* `contact` lines in file order. */
int ref_ncontacts(const ref_file *f);
const ref_contact *ref_contact_at(const ref_file *f, int k);

#endif
