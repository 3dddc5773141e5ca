"""The one place a runner is chosen and built for the audit.

Local runs get the in-process FnApiRunner, built the way DirectRunner builds it:
  * never DirectRunner itself, which since Beam 2.68 first tries Prism (a downloaded binary:
    offline it falls back, online it silently runs elsewhere);
  * with the encoded pipeline options in its provision info, because with
    --direct_running_mode=multi_processing the worker processes otherwise start with empty
    pipeline options.
Any other --runner (PortableRunner, FlinkRunner, SparkRunner, DataflowRunner, ...) is left to
Beam, which builds it from the options.
"""
from __future__ import annotations

import logging

from apache_beam.options.pipeline_options import DirectOptions, PipelineOptions, StandardOptions, WorkerOptions

log = logging.getLogger("mjref.audit")

# Runner names that mean "run it here"; compared case-insensitively.
LOCAL_RUNNERS = frozenset({"", "direct", "directrunner", "fnapirunner", "fn_api_runner"})


def is_local(options: PipelineOptions) -> bool:
    return (options.view_as(StandardOptions).runner or "").lower() in LOCAL_RUNNERS


def _given(options: PipelineOptions, name: str) -> bool:
    """Whether the user passed --name (even at its default value, which get_all_options hides)."""
    flags = getattr(options, "_flags", None) or []
    return any(f == f"--{name}" or f.startswith(f"--{name}=") for f in flags)


def prepare_local(options: PipelineOptions) -> PipelineOptions:
    """Defaults for local runs that the user did not set explicitly:
    a worker count without a running mode means worker processes (in_memory would ignore it),
    and worker processes log Beam's own chatter at WARNING but our progress lines at INFO."""
    direct = options.view_as(DirectOptions)
    if direct.direct_num_workers != 1 and not _given(options, "direct_running_mode"):
        direct.direct_running_mode = "multi_processing"
        log.info("--direct_num_workers %s: using --direct_running_mode multi_processing",
                 direct.direct_num_workers)
    if direct.direct_running_mode == "multi_processing":
        worker = options.view_as(WorkerOptions)
        if not _given(options, "default_sdk_harness_log_level"):
            worker.default_sdk_harness_log_level = "WARNING"
        if not _given(options, "sdk_harness_log_level_overrides"):
            worker.sdk_harness_log_level_overrides = {"mjref": "INFO"}
    return options


def make_runner(options: PipelineOptions):
    """The runner object for these options: an FnApiRunner for local runs, else None (Beam's choice)."""
    if not is_local(options):
        return None
    from apache_beam.portability.api import beam_provision_api_pb2
    from apache_beam.runners.portability.fn_api_runner import fn_runner
    from apache_beam.runners.portability.portable_runner import JobServiceHandle

    prepare_local(options)
    # Only what differs from Beam's defaults: the workers parse the rest to the same defaults, and
    # some default-valued runner flags would come back as "unparseable args" warnings.
    encoded = JobServiceHandle.encode_pipeline_options(options.get_all_options(drop_default=True))
    provision = fn_runner.ExtendedProvisionInfo(
        beam_provision_api_pb2.ProvisionInfo(pipeline_options=encoded))
    return fn_runner.FnApiRunner(provision_info=provision)


def describe(options: PipelineOptions) -> str:
    """A short human description of where the job runs, for the summary."""
    if not is_local(options):
        return options.view_as(StandardOptions).runner
    direct = options.view_as(DirectOptions)
    workers = direct.direct_num_workers
    return "FnApiRunner (in process)" if workers == 1 else (
        f"FnApiRunner ({workers or 'all cores'} workers, {direct.direct_running_mode})")
