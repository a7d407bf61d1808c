// meshvk/meshvk.h — the whole public C API of the meshvk runtime.
#ifndef MESHVK_MESHVK_H_
#define MESHVK_MESHVK_H_

#include "meshvk/version.h"
#include "meshvk/status.h"
#include "meshvk/instance.h"
#include "meshvk/device_set.h"
#include "meshvk/buffer.h"
#include "meshvk/executable.h"
#include "meshvk/semaphore.h"
#include "meshvk/command_buffer.h"
#include "meshvk/queue.h"
#include "meshvk/module.h"

#endif  // MESHVK_MESHVK_H_
