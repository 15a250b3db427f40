cdyn_add_check_test(test_tree test_tree.c)
