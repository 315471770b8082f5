// Package kubernetes checks the example manifests with the Kubernetes API types, since no
// cluster runs where the tests do. It is a module of its own so the Kubernetes packages stay out
// of webload's dependencies.
package kubernetes

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
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

// pullPolicy is the policy Kubernetes gives a container: its own, else Always for an image
// tagged "latest" or not tagged, else IfNotPresent.
func pullPolicy(c corev1.Container) corev1.PullPolicy {
	if c.ImagePullPolicy != "" {
		return c.ImagePullPolicy
	}
	name := c.Image[strings.LastIndex(c.Image, "/")+1:]
	if _, tag, ok := strings.Cut(name, ":"); ok && tag != "latest" || strings.Contains(name, "@") {
		return corev1.PullIfNotPresent
	}
	return corev1.PullAlways
}

// The Job runs where the example says it fits: an image already on the node is used, not
// pulled, and every shard is schedulable at once on the node size job.yaml states, so that none
// waits Pending past the planned start.
func TestJobFitsItsNode(t *testing.T) {
	var job batchv1.Job
	decode(t, "job.yaml", &job)
	c := job.Spec.Template.Spec.Containers[0]
	if p := pullPolicy(c); p == corev1.PullAlways {
		t.Errorf("image %q is pulled Always: an image loaded onto the node fails with ImagePullBackOff", c.Image)
	}
	data, err := os.ReadFile("job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Sized for a node of (\d+) CPUs`).FindSubmatch(data)
	if m == nil {
		t.Fatal(`job.yaml does not say what it fits ("Sized for a node of N CPUs")`)
	}
	node := resource.MustParse(string(m[1]))
	cpu, ok := c.Resources.Requests[corev1.ResourceCPU]
	if !ok || cpu.IsZero() {
		t.Fatal("no CPU request: the scheduler would place the shards without room to run")
	}
	if _, ok := c.Resources.Requests[corev1.ResourceMemory]; !ok {
		t.Error("no memory request")
	}
	if all := cpu.MilliValue() * int64(*job.Spec.Parallelism); all > node.MilliValue() {
		t.Errorf("%d shards x %s CPU = %dm, more than the node's %s CPUs: some would wait Pending and start late",
			*job.Spec.Parallelism, cpu.String(), all, node.String())
	}
	if _, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
		t.Error("a CPU limit throttles the shard, which shows as latency the site did not cause")
	}
	// run.sh's merge checks what the sizing is for: a shard that started late fails it.
	script, err := os.ReadFile("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "--max-lateness") {
		t.Error("run.sh merges without --max-lateness: shards that did not overlap would pass")
	}
}

func TestPullPolicy(t *testing.T) {
	for _, tc := range []struct {
		image  string
		policy corev1.PullPolicy
		want   corev1.PullPolicy
	}{
		{"webload:latest", "", corev1.PullAlways},
		{"webload", "", corev1.PullAlways},
		{"registry.example:5000/webload", "", corev1.PullAlways},
		{"webload:dev", "", corev1.PullIfNotPresent},
		{"registry.example:5000/webload:1.2", "", corev1.PullIfNotPresent},
		{"webload@sha256:0123", "", corev1.PullIfNotPresent},
		{"webload:latest", corev1.PullIfNotPresent, corev1.PullIfNotPresent},
	} {
		if got := pullPolicy(corev1.Container{Image: tc.image, ImagePullPolicy: tc.policy}); got != tc.want {
			t.Errorf("%s with %q: %s, want %s", tc.image, tc.policy, got, tc.want)
		}
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
