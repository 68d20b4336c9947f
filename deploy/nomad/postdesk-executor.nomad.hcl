# A fleet of Postdesk executors on Nomad: N plain allocations sharing the work through the service's
# idempotent run starts (docs/executor.md, "Running a fleet"). The API key comes from a Nomad variable
# (nomad var put nomad/jobs/postdesk-executor api_key=@key), rendered 0600 for the image's user.
job "postdesk-executor" {
  type = "service"

  group "executor" {
    count = 3

    # One allocation at a time on updates; the others take its occurrences meanwhile.
    update {
      max_parallel = 1
      min_healthy_time = "30s"
    }

    network {
      port "metrics" {
        to = 9464
      }
    }

    # The data directory (executor identity, run journal) follows the allocation across restarts.
    ephemeral_disk {
      sticky  = true
      migrate = true
      size    = 1024
    }

    service {
      name = "postdesk-executor"
      port = "metrics"
      tags = ["prometheus"]
      meta {
        metrics_path = "/metrics"
      }
      check {
        name     = "healthz"
        type     = "http"
        path     = "/healthz"
        interval = "15s"
        timeout  = "5s"
      }
    }

    task "executor" {
      driver = "docker"

      config {
        image           = "postdesk-executor:latest"
        ports           = ["metrics"]
        readonly_rootfs = true
        args = [
          "executor",
          "--name=${NOMAD_ALLOC_NAME}",
          "--metrics-port=9464",
          "--metrics-host=0.0.0.0",
          "--stop-grace=20",
        ]
        mount {
          type   = "tmpfs"
          target = "/tmp"
        }
      }

      user = "1000:1000"

      env {
        POSTDESK_DATA_DIR     = "${NOMAD_ALLOC_DIR}/data"
        HOME                  = "${NOMAD_ALLOC_DIR}/data"
        POSTDESK_API_KEY_FILE = "${NOMAD_SECRETS_DIR}/api-key"
      }

      # The executor refuses a key file others may read: rendered 0600, owned by the image's user.
      template {
        data        = "{{ with nomadVar \"nomad/jobs/postdesk-executor\" }}{{ .api_key }}{{ end }}"
        destination = "${NOMAD_SECRETS_DIR}/api-key"
        perms       = "600"
        uid         = 1000
        gid         = 1000
      }

      # SIGTERM drains: running runs get --stop-grace to finish, inside kill_timeout.
      kill_signal  = "SIGTERM"
      kill_timeout = "60s"

      resources {
        cpu    = 100
        memory = 256
      }
    }
  }
}
