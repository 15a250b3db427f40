# The output stage: all or nothing under a failure at every step and under a signal, never
# over a file cdyngen did not write, leftovers of interrupted runs cleaned.
cdyn_add_check_test(test_output test_output.c)
