# kernel-registers.awk - from nvcc -Xptxas -v output on stdin, one line per kernel:
#   REGISTERS FILE KERNEL
# (`make kernel-registers` runs it over every .cu file of the library; file= names it).
/Compiling entry function/ {
    kernel = $0
    sub(/.*entry function '/, "", kernel)
    sub(/' for .*/, "", kernel)
    # a kernel in an anonymous namespace under -rdc: __nv_static_<ids>__<mangled name>
    if (kernel ~ /^__nv_static_/ && (at = index(kernel, "__Z")) > 0) kernel = substr(kernel, at + 1)
}
/Used [0-9]+ registers/ && kernel != "" {
    regs = $0
    sub(/.*Used /, "", regs)
    sub(/ registers.*/, "", regs)
    print regs, file, kernel
    kernel = ""
}
