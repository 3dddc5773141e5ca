"""The optional compiled shape kernels (referee/_shapes_c.c): built when a C compiler is there,
skipped with a warning when not; the referee then runs on the Python functions, its reference."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("referee._shapes_c", ["referee/_shapes_c.c"], optional=True)])
