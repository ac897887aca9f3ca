{{/*
The job kinds Sluice has adapters for (dev.sluice.jobs.JobKinds.standard()), by integration name: the API they are
served under. Used for RBAC and webhook rules of the kinds switched on in .Values.integrations.
*/}}
{{- define "sluice.kindTable" -}}
job: {group: batch, version: v1, resource: jobs}
jobset: {group: jobset.x-k8s.io, version: v1alpha2, resource: jobsets}
tfjob: {group: kubeflow.org, version: v1, resource: tfjobs}
pytorchjob: {group: kubeflow.org, version: v1, resource: pytorchjobs}
xgboostjob: {group: kubeflow.org, version: v1, resource: xgboostjobs}
paddlejob: {group: kubeflow.org, version: v1, resource: paddlejobs}
jaxjob: {group: kubeflow.org, version: v1, resource: jaxjobs}
mpijob: {group: kubeflow.org, version: v2beta1, resource: mpijobs}
rayjob: {group: ray.io, version: v1, resource: rayjobs}
raycluster: {group: ray.io, version: v1, resource: rayclusters}
rayservice: {group: ray.io, version: v1, resource: rayservices}
sparkapplication: {group: sparkoperator.k8s.io, version: v1beta2, resource: sparkapplications}
workflow: {group: argoproj.io, version: v1alpha1, resource: workflows}
appwrapper: {group: workload.codeflare.dev, version: v1beta2, resource: appwrappers}
{{- end -}}

{{/* The enabled kinds as a YAML list of {name, group, version, resource}; fails on a switch no kind has. */}}
{{- define "sluice.enabledKinds" -}}
{{- $table := include "sluice.kindTable" . | fromYaml -}}
{{- $out := list -}}
{{- range $name, $on := .Values.integrations -}}
{{- if not (hasKey $table $name) -}}
{{- fail (printf "integrations.%s: no job kind is called %q; the integrations are %s" $name $name (keys $table | sortAlpha | join ", ")) -}}
{{- end -}}
{{- if $on -}}
{{- $k := get $table $name -}}
{{- $out = append $out (dict "name" $name "group" $k.group "version" $k.version "resource" $k.resource) -}}
{{- end -}}
{{- end -}}
{{- toYaml (dict "kinds" $out) -}}
{{- end -}}
