//! Link arguments of the extension module. On macOS a Python extension does not link against
//! a libpython: its `Py*` symbols stay undefined and are found in the interpreter when it is
//! loaded (`-undefined dynamic_lookup`, what pyo3-build-config's
//! `add_extension_module_link_args` writes). Linux's linker leaves them undefined by itself;
//! Windows links against python3.dll's import library (PyO3's build). Its install name on macOS
//! is `@rpath/_fast.abi3.so`, not the path of the build directory that the linker would write.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("macos") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-undefined,dynamic_lookup");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/_fast.abi3.so");
    }
}
