# AX_SPIRA_CFLAGS: C11, warnings, hidden visibility, optional sanitizers.
AC_DEFUN([AX_SPIRA_CFLAGS], [
  SPIRA_CFLAGS="-std=c11 -Wall -Wextra -Wno-unused-parameter -fvisibility=hidden"
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])],
    [], [enable_werror=no])
  AS_IF([test "x$enable_werror" = xyes], [SPIRA_CFLAGS="$SPIRA_CFLAGS -Werror"])
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers], [build with AddressSanitizer and UBSan])],
    [], [enable_sanitizers=no])
  SANITIZER_FLAGS=
  AS_IF([test "x$enable_sanitizers" = xyes],
    [SANITIZER_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"])
  AC_ARG_ENABLE([fuzzing],
    [AS_HELP_STRING([--enable-fuzzing], [build libFuzzer targets (needs CC=clang; implies sanitizers)])],
    [], [enable_fuzzing=no])
  AS_IF([test "x$enable_fuzzing" = xyes],
    [SANITIZER_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"])
  AM_CONDITIONAL([FUZZING], [test "x$enable_fuzzing" = xyes])
  AC_SUBST([SPIRA_CFLAGS])
  AC_SUBST([SANITIZER_FLAGS])
])
