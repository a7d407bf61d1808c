// meshvk/meshvk.h — the whole public C API of the meshvk runtime.
#ifndef MESHVK_MESHVK_H_
#define MESHVK_MESHVK_H_

#include "meshvk/buffer.h"
#include "meshvk/command_buffer.h"
#include "meshvk/device_set.h"
#include "meshvk/executable.h"
#include "meshvk/instance.h"
#include "meshvk/module.h"
#include "meshvk/queue.h"
#include "meshvk/semaphore.h"
#include "meshvk/status.h"
#include "meshvk/version.h"

#endif  // MESHVK_MESHVK_H_
