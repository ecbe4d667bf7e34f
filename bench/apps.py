from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The benchmarks (`make bench`): the API, the audit run and the engine, apart from the apps they measure."""

    name = "bench"
    label = "bench"
    verbose_name = "Benchmarks"
