/* A header-only consumer of the C API, compiled as C99 (-pedantic-errors
 * -Wall -Wextra -Werror) and, through consumer_cxx.cc, as C++17: every
 * public header, every extensible struct built with its initializer and a
 * `next` chain, and then a run on the machine's Vulkan: unknown chained
 * structs are skipped, a chained device timeout is found behind one, a
 * struct of the wrong type and headers of another version are refused, a
 * filled struct keeps its header, 0 polls and MESHVK_TIMEOUT_INFINITE waits,
 * and handles are released children first and parents first.
 * Exit 0 when every check holds; each failure prints one line. */
#include <stdio.h>
#include <string.h>

#include "meshvk/meshvk.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"
#include "meshvk/transport_mpi.h"
#include "meshvk/vulkan.h"

static int failures = 0;

static void Expect(int ok, const char* what) {
  if (!ok) {
    printf("consumer: FAILED: %s\n", what);
    ++failures;
  }
}

/* Takes a status: 1 when its code is `code`. */
static int Code(meshvk_status_t status, meshvk_status_code_t code) {
  const int same = meshvk_status_code(status) == code;
  if (!same)
    printf("consumer: got %s: %s\n", meshvk_status_code_name(meshvk_status_code(status)),
           meshvk_status_message(status));
  meshvk_status_free(status);
  return same;
}

/* A struct of a type no version of meshvk defines, chained in front. */
typedef struct Unknown {
  meshvk_structure_type_t type;
  const void* next;
  double payload[4];
} Unknown;

/* The struct's initializer sets its tag and an empty `next`. */
#define MESHVK_STRUCT(TYPE, NAME)                                                \
  {                                                                              \
    TYPE value = MESHVK_##NAME##_INIT;                                           \
    Expect(value.type == MESHVK_STRUCTURE_TYPE_##NAME, "MESHVK_" #NAME "_INIT"); \
    Expect(value.next == NULL, "MESHVK_" #NAME "_INIT next");                    \
  }

static void EveryInitializer(void) {
#include "struct_inits.def"
#undef MESHVK_STRUCT
  {
    meshvk_program_ranks_t ranks = MESHVK_PROGRAM_RANKS_INIT;
    Expect(ranks.collectives == MESHVK_RANK_COLLECTIVES_TRANSPORT, "ranks run collectives through the transport");
  }
  {
    meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
    meshvk_instance_create_info_t instance = MESHVK_INSTANCE_CREATE_INFO_INIT;
    meshvk_device_timeout_t timeout = MESHVK_DEVICE_TIMEOUT_INIT;
    Expect(invoke.timeout == MESHVK_TIMEOUT_INFINITE, "an invoke waits without bound by default");
    Expect(instance.api_version == MESHVK_VERSION, "the instance info carries the headers' version");
    Expect(timeout.timeout == 60000000000ull, "the device timeout defaults to 60 s");
  }
}

static void VersionsAndTypes(void) {
  meshvk_instance_t* instance = NULL;
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  Expect(meshvk_version() == MESHVK_VERSION, "library and headers are one version");
  info.api_version = MESHVK_MAKE_VERSION(MESHVK_VERSION_MAJOR + 1, 0, 0);
  Expect(Code(meshvk_instance_create(&info, &instance), MESHVK_STATUS_UNAVAILABLE), "headers of the next major");
  info.api_version = MESHVK_MAKE_VERSION(MESHVK_VERSION_MAJOR, MESHVK_VERSION_MINOR + 1, 0);
  Expect(Code(meshvk_instance_create(&info, &instance), MESHVK_STATUS_UNAVAILABLE), "headers of a newer minor");
  info.api_version = 0;
  Expect(Code(meshvk_instance_create(&info, &instance), MESHVK_STATUS_INVALID_ARGUMENT), "api_version 0");
  info.api_version = MESHVK_VERSION;
  info.type = MESHVK_STRUCTURE_TYPE_GRID_INFO;
  Expect(Code(meshvk_instance_create(&info, &instance), MESHVK_STATUS_INVALID_ARGUMENT), "a struct of another type");
  Expect(instance == NULL, "no instance after a refusal");
}

static void Run(void) {
  Unknown unknown = {(meshvk_structure_type_t)0x7000, NULL, {0}};
  meshvk_instance_create_info_t instance_info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  meshvk_instance_t* instance = NULL;
  meshvk_device_timeout_t timeout = MESHVK_DEVICE_TIMEOUT_INIT;
  Unknown in_front = {(meshvk_structure_type_t)0x7001, NULL, {0}};
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  meshvk_device_set_t* set = NULL;
  meshvk_physical_device_info_t device = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  meshvk_buffer_create_info_t buffer_info = MESHVK_BUFFER_CREATE_INFO_INIT;
  meshvk_buffer_t* buffer = NULL;
  meshvk_semaphore_t* semaphore = NULL;
  meshvk_executable_t* fill = NULL;
  uint32_t words[64];
  uint32_t i;

  instance_info.next = &unknown;
  instance_info.application_name = "meshvk C consumer";
  if (!Code(meshvk_instance_create(&instance_info, &instance), MESHVK_STATUS_OK)) {
    Expect(0, "instance with an unknown struct chained");
    return;
  }
  device.next = &unknown;
  Expect(Code(meshvk_instance_physical_device_info(instance, 0, &device), MESHVK_STATUS_OK), "physical device info");
  Expect(device.type == MESHVK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INFO && device.next == &unknown,
         "a filled struct keeps its type and next");
  Expect(device.queue_family_count > 0 && device.queue_families != NULL, "queue families through a count and array");

  timeout.timeout = 5ull * 1000 * 1000 * 1000;
  in_front.next = &timeout;
  set_info.next = &in_front;
  set_info.topology = MESHVK_TOPOLOGY_LOGICAL;
  set_info.process_count = 2;
  if (!Code(meshvk_device_set_create(instance, &set_info, &set), MESHVK_STATUS_OK)) {
    Expect(0, "device set with a device timeout behind an unknown struct");
    meshvk_instance_release(instance);
    return;
  }
  /* Parents first: the set keeps its instance alive. */
  meshvk_instance_release(instance);

  buffer_info.process = 1;
  buffer_info.size = sizeof(words);
  Expect(Code(meshvk_buffer_create_with_info(set, &buffer_info, &buffer), MESHVK_STATUS_OK), "buffer");
  Expect(meshvk_buffer_process(buffer) == 1, "the buffer's process");
  Expect(meshvk_buffer_process(NULL) == MESHVK_NO_PROCESS, "no process for NULL");
  for (i = 0; i < 64; ++i) words[i] = i * 3u;
  Expect(Code(meshvk_buffer_write(buffer, 0, words, sizeof(words)), MESHVK_STATUS_OK), "write");
  memset(words, 0, sizeof(words));
  Expect(Code(meshvk_buffer_read(buffer, 0, words, sizeof(words)), MESHVK_STATUS_OK), "read");
  Expect(words[63] == 189u, "the bytes came back");

  Expect(Code(meshvk_semaphore_create(set, 0, 0, &semaphore), MESHVK_STATUS_OK), "semaphore");
  Expect(Code(meshvk_semaphore_wait(semaphore, 1, 0), MESHVK_STATUS_DEADLINE_EXCEEDED), "timeout 0 checks once");
  Expect(Code(meshvk_semaphore_signal(semaphore, 1), MESHVK_STATUS_OK), "signal");
  Expect(Code(meshvk_semaphore_wait(semaphore, 1, 0), MESHVK_STATUS_OK), "a reached value with timeout 0");
  Expect(Code(meshvk_semaphore_wait(semaphore, 1, MESHVK_TIMEOUT_INFINITE), MESHVK_STATUS_OK), "infinite wait");
  Expect(Code(meshvk_executable_builtin(set, MESHVK_BUILTIN_FILL, &fill), MESHVK_STATUS_OK), "built-in executable");

  /* The set goes before its children; each child keeps it alive. */
  meshvk_device_set_retain(set);
  meshvk_device_set_release(set);
  meshvk_device_set_release(set);
  Expect(meshvk_buffer_size(buffer) == sizeof(words), "a buffer outlives the caller's set reference");
  meshvk_executable_release(fill);
  meshvk_semaphore_release(semaphore);
  meshvk_buffer_release(buffer);
  meshvk_buffer_release(NULL);
}

int main(void) {
  EveryInitializer();
  VersionsAndTypes();
  Run();
  if (failures == 0) printf("consumer: ok\n");
  return failures == 0 ? 0 : 1;
}
