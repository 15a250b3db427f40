/* startup.c — the least a Cortex-M4F/M7 needs to run C: a vector table, .data copied and
 * .bss cleared, the FPU switched on, then main. Exceptions stop the emulator with a failure. */
#include <stdint.h>
#include <string.h>
#include "semihost.h"

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
extern uint32_t __stack_top[];
int main(void);
void fw_reset(void);

static void fw_fault(void)
{
    semihost_write("FAULT\n");
    semihost_exit(1);
}

/* Initial stack pointer, reset, and the faults (NMI, HardFault, MemManage, BusFault,
 * UsageFault): nothing else is enabled. */
__attribute__((section(".vectors"), used)) static void (*const fw_vectors[7])(void) = {
    (void (*)(void))(uintptr_t)__stack_top,
    fw_reset,
    fw_fault,
    fw_fault,
    fw_fault,
    fw_fault,
    fw_fault,
};

void fw_reset(void)
{
    volatile uint32_t *const cpacr = (volatile uint32_t *)0xE000ED88u;
    memcpy(__data_start, __data_load, (size_t)((char *)__data_end - (char *)__data_start));
    memset(__bss_start, 0, (size_t)((char *)__bss_end - (char *)__bss_start));
    *cpacr |= 0xFu << 20; /* CP10 and CP11 (the FPU): full access */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    semihost_exit(main() != 0);
}
