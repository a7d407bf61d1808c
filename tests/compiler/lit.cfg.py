# lit configuration for meshvk's compiler tests (tests/compiler/{Dialect,
# Transforms,Codegen}/*.mlir). Uses Debian's lit, FileCheck and not.
import os

import lit.formats

config.name = "meshvk-compiler"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = getattr(config, "meshvk_obj_root", os.path.dirname(__file__))
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

tools_path = os.pathsep.join([config.meshvk_opt_dir, config.llvm_tools_dir])
config.environment["PATH"] = os.pathsep.join(
    [tools_path, config.environment.get("PATH", os.environ.get("PATH", ""))])
