// mesh-vk-run: runs meshvk programs (.mvk, or .mlir/.onnx compiled in-process),
// lists devices and runs a built-in self-check on every process of a device set.
// Exit codes: 0 ok, 1 results differ from --expected-output, 2 bad input/usage,
// 3 runtime/device failure.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "device_flags.h"
#include "flags.h"
#include "list_devices.h"
#include "meshvk/meshvk.h"
#include "meshvk_environment.h"
#include "mpi_job.h"
#include "run_program.h"
#include "self_check.h"
#include "status_text.h"
#include "verbose.h"

namespace {

using meshvk_run::kExitDevice;
using meshvk_run::kExitOk;
using meshvk_run::kExitUsage;

int Fail(meshvk_status_t status, int code = kExitDevice) {
  std::fprintf(stderr, "mesh-vk-run: %s: %s\n", meshvk_status_code_name(meshvk_status_code(status)),
               meshvk_run::StatusText(status).c_str());
  meshvk_status_free(status);
  return code;
}

// A bad MESHVK_VALIDATION value is usage (exit 2), not a device failure.
int FailInstanceCreate(meshvk_status_t status) { return Fail(status, meshvk_run::InstanceCreateExitCode(status)); }

// PROGRAM given: list devices first when asked too, then run it (as one
// rank of an MPI job when a launcher started this process).
int RunOneProgram(int argc, char** argv, const meshvk_run::Flags& flags) {
  std::string error;
  if (flags.self_check) {
    std::fprintf(stderr, "mesh-vk-run: --self-check does not take a program ('%s')\n", flags.positional[0].c_str());
    return kExitUsage;
  }
  if (flags.list_devices) {  // list first, then run: both were asked for
    meshvk_instance_t* instance = nullptr;
    if (meshvk_status_t status = meshvk_environment_create_instance(&instance)) return FailInstanceCreate(status);
    meshvk_status_t status = meshvk_run::ListDevices(instance, stdout);
    meshvk_instance_release(instance);
    if (status) return Fail(status);
  }
  meshvk_run::DeviceChoice devices;
  devices.processes = flags.devices_set ? flags.devices : 0;
  devices.group = flags.device_group;
  devices.topology = flags.topology;
  devices.physical_devices = flags.physical_devices;
  devices.devices_text = flags.devices_text;
  devices.validation = flags.validation;
  // Started by mpirun (or another MPI launcher): one rank of a job.
  std::unique_ptr<meshvk_run::MpiJob> mpi;
  if (meshvk_mpi_launcher_rank_count() > 0) {
    mpi = meshvk_run::MpiJob::Start(&argc, &argv, &error);
    if (!mpi) {
      std::fprintf(stderr, "mesh-vk-run: %s\n", error.c_str());
      return kExitUsage;
    }
  }
  int code = kExitDevice;
  // Sizes are checked against the signature before anything is allocated,
  // but a tensor the signature allows can still exceed this process's
  // memory (ulimit, cgroup): one line and exit 3, not std::terminate
  // (issue 13 campaign: a 65536x65536xf32 splat under ulimit -v 4 GiB).
  try {
    code = meshvk_run::RunProgram(flags.positional[0], flags.run, devices, mpi.get());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "mesh-vk-run: out of host memory: the program's inputs, outputs or buffers do not fit "
                 "this process's memory limit\n");
  }
  if (uint64_t leaked = meshvk_leaked_object_count())  // a device stopped answering (device_wait.h)
    meshvk_run::Verbose(1, "left %llu Vulkan objects of a device that stopped answering alive on purpose",
                        static_cast<unsigned long long>(leaked));
  if (mpi) {
    // A failing rank ends the whole job at once (the others may be blocked
    // in a receive from it); otherwise every rank exits with the same code.
    // (A failure found before the invoke was agreed by every rank: mpi_job.h AgreeStart.)
    if (code != kExitOk && code != meshvk_run::kExitMismatch && !mpi->failure_agreed()) {
      std::fprintf(stderr, "mesh-vk-run: rank %u of %u failed (exit %d); ending the job\n", mpi->rank(), mpi->size(),
                   code);
      mpi->Abort(code);
    }
    code = mpi->AgreeExit(code);
  }
  return code;
}

// --list-devices and --self-check without a program.
int RunDeviceCommands(const meshvk_run::Flags& flags) {
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  info.flags = flags.validation ? MESHVK_INSTANCE_VALIDATION_BIT : 0;
  info.application_name = "mesh-vk-run";
  meshvk_instance_t* instance = nullptr;
  if (meshvk_status_t status = meshvk_environment_instance_flags(&info)) return FailInstanceCreate(status);
  if (meshvk_status_t status = meshvk_instance_create(&info, &instance)) return FailInstanceCreate(status);

  int exit_code = kExitOk;
  if (flags.list_devices) {
    if (meshvk_status_t status = meshvk_run::ListDevices(instance, stdout)) {
      exit_code = Fail(status);
    }
  }
  if (flags.self_check && exit_code == kExitOk) {
    meshvk_run::DeviceChoice devices;
    devices.physical_devices = flags.physical_devices;
    devices.group = flags.device_group;
    devices.topology = flags.topology;
    devices.devices_text = flags.devices_text;
    if (std::string error = meshvk_run::CheckDeviceChoice(instance, devices); !error.empty()) {
      std::fprintf(stderr, "mesh-vk-run: %s\n", error.c_str());
      meshvk_instance_release(instance);
      return kExitUsage;
    }
    std::string mismatch;
    // --devices=0,2: one process per listed device unless a count was given too.
    const uint32_t processes = !flags.physical_devices.empty() && !flags.devices_set
                                   ? static_cast<uint32_t>(flags.physical_devices.size())
                                   : flags.devices;
    if (meshvk_status_t status =
            meshvk_run::SelfCheck(instance, processes, flags.topology, flags.physical_devices, stdout, &mismatch)) {
      exit_code = Fail(status);
    } else if (!mismatch.empty()) {
      std::fprintf(stderr, "mesh-vk-run: self-check failed: %s\n", mismatch.c_str());
      exit_code = kExitDevice;
    }
  }
  if (flags.validation && meshvk_instance_message_count(instance) > 0 && exit_code == kExitOk) {
    std::fprintf(stderr, "mesh-vk-run: %llu validation message(s)\n",
                 static_cast<unsigned long long>(meshvk_instance_message_count(instance)));
    exit_code = kExitDevice;
  }
  meshvk_instance_release(instance);
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  meshvk_run::Flags flags;
  std::string error;
  if (!meshvk_run::ParseFlags(argc, argv, &flags, &error)) {
    // One line: the usage text is one --help away.
    std::fprintf(stderr, "mesh-vk-run: %s (see --help)\n", error.c_str());
    return kExitUsage;
  }
  if (flags.help) {
    std::fputs(meshvk_run::UsageText(), stdout);
    return kExitOk;
  }
  if (flags.version) {
    std::printf("%s\n", meshvk_run::VersionText().c_str());
    return kExitOk;
  }
  meshvk_run::SetVerbosity(flags.verbosity);
  if (flags.positional.size() > 1) {
    std::fprintf(stderr, "mesh-vk-run: one program at a time (got '%s' and '%s')\n", flags.positional[0].c_str(),
                 flags.positional[1].c_str());
    return kExitUsage;
  }
  if (flags.positional.size() == 1) {
    const int code = RunOneProgram(argc, argv, flags);
    // A device that stopped answering may still run the work it was given
    // on its driver's threads (a CPU driver's, or a GPU driver's queue
    // thread): the process ends without running static destructors under
    // them, which can crash inside the driver after the one-line error.
    if (meshvk_leaked_object_count() > 0) {
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(code);
    }
    return code;
  }
  if (!flags.list_devices && !flags.self_check) {
    std::fprintf(stderr, "mesh-vk-run: nothing to do (give PROGRAM.mvk, --list-devices or --self-check; see --help)\n");
    return kExitUsage;
  }

  return RunDeviceCommands(flags);
}
