/* semihost.c — Arm semihosting calls (bkpt 0xab on M-profile) and SysTick. */
#include "semihost.h"

#define SYS_WRITE0 0x04
#define SYS_EXIT 0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
#define ADP_STOPPED_RUNTIME_ERROR 0x20023

static uintptr_t semihost_call(uintptr_t op, uintptr_t arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void semihost_write(const char *s)
{
    semihost_call(SYS_WRITE0, (uintptr_t)s);
}

void semihost_exit(int failed)
{
    /* On 32-bit Arm, SYS_EXIT takes the reason itself; QEMU exits 0 for ApplicationExit
     * and 1 for any other reason. */
    semihost_call(SYS_EXIT, failed ? ADP_STOPPED_RUNTIME_ERROR : ADP_STOPPED_APPLICATION_EXIT);
    for (;;) {
    }
}

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

void clock_start(void)
{
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 5u; /* enabled, core clock, no interrupt */
}

uint32_t clock_now(void)
{
    return (0xFFFFFFu - SYST_CVR) & 0xFFFFFFu; /* SysTick counts down */
}
