/*
 * A stand-in for bcryptprimitives.dll, for running the C suite under Debian's wine only (it is
 * built by the test setup when CMAKE_CROSSCOMPILING_EMULATOR is wine, put on WINEPATH, and
 * never installed or shipped; real Windows 10 and 11 have the real DLL).
 *
 * Rust's standard library imports ProcessPrng from bcryptprimitives.dll (its random source,
 * used for HashMap seeds); the wine in Debian 12 lacks that DLL, so every program loading
 * chesscore.dll would fail to start. This one exports ProcessPrng and fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), in chunks that fit its ULONG length.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x40000000u ? 0x40000000u : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
