{{/* Rules for the enabled job kinds, for one list of operations. */}}
{{- define "sluice.jobRules" -}}
{{- $root := index . 0 -}}
{{- $ops := index . 1 -}}
{{- range (include "sluice.enabledKinds" $root | fromYaml).kinds }}
- operations: {{ toJson $ops }}
  apiGroups: [{{ .group | quote }}]
  apiVersions: [{{ .version | quote }}]
  resources: [{{ .resource }}]
  scope: Namespaced
{{- end }}
{{- end -}}

{{/* Namespaces that never call Sluice: the configured ones and the release namespace (Sluice's own pods). */}}
{{- define "sluice.excludedNamespaces" -}}
{{- toJson (concat .Values.webhook.excludedNamespaces (list .Release.Namespace) | uniq) -}}
{{- end -}}

{{- define "sluice.webhookCommon" -}}
admissionReviewVersions: [v1]
sideEffects: None
failurePolicy: {{ .Values.webhook.failurePolicy }}
timeoutSeconds: {{ .Values.webhook.timeoutSeconds }}
{{- end -}}
