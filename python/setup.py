"""Builds the extension nldr._nldr with the project's CMake (the same as cmake --build, target
nldr_python) and packages it with the pure-Python modules. docs/python.md: pip install
--no-build-isolation ./python."""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PROJECT = pathlib.Path(__file__).resolve().parent.parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.run(["cmake", "-S", str(PROJECT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DNLDR_BUILD_TESTS=OFF", "-DNLDR_BUILD_EXAMPLES=OFF", "-DNLDR_BUILD_PYTHON=ON",
                        f"-DPYTHON_EXECUTABLE={sys.executable}"], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", str(build), "--target", "nldr_python", "--parallel", jobs], check=True)
        built = next((build / "python" / "nldr").glob("_nldr*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


if not (PROJECT / "include" / "nldr").is_dir():
    sys.exit("setup.py builds from the nldr source tree: run pip install ./python from a checkout")
setup(ext_modules=[Extension("nldr._nldr", sources=[])], cmdclass={"build_ext": CMakeBuild})
