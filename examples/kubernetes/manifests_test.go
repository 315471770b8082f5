// Package kubernetes checks the example manifests with the Kubernetes API types, since no
// cluster runs where the tests do. It is a module of its own so the Kubernetes packages stay out
// of webload's dependencies.
package kubernetes

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/webload/webload/urls"
)

// decode reads a manifest strictly: a misspelt or misplaced field is an error, as kubectl's
// server-side validation would report it.
func decode(t *testing.T, path string, into any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestJob(t *testing.T) {
	var job batchv1.Job
	decode(t, "job.yaml", &job)
	spec := job.Spec
	if job.Kind != "Job" || job.APIVersion != "batch/v1" {
		t.Fatalf("kind %s/%s", job.APIVersion, job.Kind)
	}
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Error("the Job must be Indexed, so each pod gets JOB_COMPLETION_INDEX")
	}
	if spec.Completions == nil || spec.Parallelism == nil || *spec.Completions != *spec.Parallelism {
		t.Error("completions and parallelism must be equal: every shard runs at once")
	}
	if spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Error("a failed shard must not be restarted into a second, late run")
	}
	c := spec.Template.Spec.Containers[0]
	shards := ""
	for _, e := range c.Env {
		if e.Name == "WEBLOAD_SHARDS" {
			shards = e.Value
		}
	}
	if shards != strconv.Itoa(int(*spec.Completions)) {
		t.Errorf("WEBLOAD_SHARDS is %q, completions %d", shards, *spec.Completions)
	}
	for _, want := range []string{"--start-at", "START_AT", "-j", "/config/urls.txt"} {
		if !slices.Contains(c.Args, want) {
			t.Errorf("webload's arguments lack %q: %v", want, c.Args)
		}
	}
	mounted := false
	for _, v := range spec.Template.Spec.Volumes {
		if v.ConfigMap != nil && v.ConfigMap.Name == "webload-urls" {
			mounted = true
		}
	}
	if !mounted {
		t.Error("the URL list's ConfigMap is not mounted")
	}
}

func TestURLList(t *testing.T) {
	var cm corev1.ConfigMap
	decode(t, "configmap.yaml", &cm)
	list, ok := cm.Data["urls.txt"]
	if !ok {
		t.Fatal("the ConfigMap has no urls.txt")
	}
	targets, err := urls.Parse(strings.NewReader(list), "configmap.yaml urls.txt", ".", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) == 0 {
		t.Error("the URL list is empty")
	}
}
