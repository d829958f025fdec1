from django.urls import path, re_path

import backend.core.converters  # noqa: F401  (registers <text:...>)
from backend.pipelines import apis

urlpatterns = [
    path("pipelines", apis.PipelineListApi.as_view(), name="pipelines"),
    path("pipelines/<slug:name>", apis.PipelineDetailApi.as_view(), name="pipeline"),
    re_path(
        r"^pipelines/(?P<name>[-\w]+)/(?P<action>start|pause|resume|stop)$",
        apis.PipelineActionApi.as_view(),
        name="pipeline-action",
    ),
    path(
        "pipelines/<slug:name>/ingress/<text:relation>",
        apis.PipelineIngressApi.as_view(),
        name="pipeline-ingress",
    ),
    path(
        "pipelines/<slug:name>/ingress/<text:relation>/bound",
        apis.PipelineBoundApi.as_view(),
        name="pipeline-ingress-bound",
    ),
    path(
        "pipelines/<slug:name>/egress/<text:view>",
        apis.PipelineEgressApi.as_view(),
        name="pipeline-egress",
    ),
    path("pipelines/<slug:name>/query", apis.PipelineQueryApi.as_view(), name="pipeline-query"),
    path("pipelines/<slug:name>/deploy", apis.PipelineDeployApi.as_view(), name="pipeline-deploy"),
    path("pipelines/<slug:name>/deltas", apis.PipelineDeltasApi.as_view(), name="pipeline-deltas"),
    path(
        "pipelines/<slug:name>/late_rows",
        apis.PipelineLateRowsApi.as_view(),
        name="pipeline-late-rows",
    ),
    path("pipelines/<slug:name>/stats", apis.PipelineStatsApi.as_view(), name="pipeline-stats"),
    path(
        "pipelines/<slug:name>/metrics", apis.PipelineMetricsApi.as_view(), name="pipeline-metrics"
    ),
    path("metrics", apis.PrometheusApi.as_view(), name="metrics"),
    path("pipelines/<slug:name>/events", apis.PipelineEventsApi.as_view(), name="pipeline-events"),
    path("pipelines/<slug:name>/pumps", apis.PipelinePumpsApi.as_view(), name="pipeline-pumps"),
    re_path(
        r"^pipelines/(?P<name>[-\w]+)/pumps/(?P<pump>[^/\x00]+)/(?P<action>start|pause|resume|stop)$",
        apis.PipelinePumpActionApi.as_view(),
        name="pipeline-pump-action",
    ),
]
