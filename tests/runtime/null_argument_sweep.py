#!/usr/bin/env python3
"""Generates two sweeps over every function of meshvk's public C API, from
the headers, so a new function is covered the day it is declared:

  null_argument_sweep.py sweep OUT.cc HEADER...
      a program calling each function with every argument zero (NULL handles
      and out-pointers, zero sizes), each call in a child process; it fails
      naming each call that crashed, left an object alive, or broke the NULL
      rule of meshvk/meshvk.h: a call returning a status returns
      INVALID_ARGUMENT, a query of a NULL handle returns "none" (0, NULL,
      MESHVK_NO_PROCESS) (runtime.null_arguments). Generating it fails when a
      timeout in the headers is not a meshvk_timeout_t.
  null_argument_sweep.py table OUT.inc HEADER...
      a table of calls that pass LIVE handles (instance, device set, buffer,
      ...; the `Handles` of tests/runtime/module/hostile_arguments_test.cc)
      and hostile values everywhere else: NULL pointers, and integers either
      0 or their maximum; a third call passes zero-filled structs as inputs. Functions that release, retain or free are left out
      (they end a handle's life; abort ends the process), and timeouts are 0 (a wait with an infinite
      timeout on a value never signalled is a correct hang).
"""
import re
import sys

# A declaration at the start of a line: return type, meshvk_ name, parameters.
DECLARATION = re.compile(r'\n((?:const )?[A-Za-z_0-9]+\s*\**)\s*(meshvk_[a-z0-9_]+)\s*\(([^;{]*?)\)\s*;')


def declarations(header_paths):
    found = []
    for path in header_paths:
        text = re.sub(r'//[^\n]*', '', open(path).read())
        for match in DECLARATION.finditer(text):
            result, name, parameters = match.groups()
            parameters = parameters.strip()
            count = 0 if parameters in ('', 'void') else parameters.count(',') + 1
            found.append((result.strip(), name, count, parameters))
    return found


# Live handle per parameter type (const or not); `**` out-parameters are NULL.
HANDLES = {
    'meshvk_instance_t*': 'h.instance', 'meshvk_device_set_t*': 'h.set', 'meshvk_buffer_t*': 'h.buffer',
    'meshvk_command_buffer_t*': 'h.command_buffer', 'meshvk_executable_t*': 'h.executable',
    'meshvk_semaphore_t*': 'h.semaphore', 'meshvk_module_t*': 'h.module', 'meshvk_program_t*': 'h.program',
    # No live MPI transport in a test process that mpirun did not start.
    'meshvk_mpi_transport_t*': 'nullptr',
}
INTEGERS = ('uint32_t', 'uint64_t', 'size_t', 'VkDeviceSize', 'int32_t', 'int64_t', 'int', 'meshvk_timeout_t')

# Functions whose all-zero call is a valid request, not a NULL handle: what
# they return for it instead of INVALID_ARGUMENT (or "none").
ZERO_IS_VALID = {
    'meshvk_status_create': 'MESHVK_STATUS_OK is no error: NULL',
    'meshvk_mpi_transport_agree': '-1: MPI failed (documented)',
}


def first_handle(parameters):
    """Whether the first parameter is a meshvk handle (the object a call
    acts on or queries)."""
    first = parameters.split(',')[0]
    kind = ' '.join(first.split()).replace('const ', '')
    kind = kind[:kind.rfind(re.split(r'[\s*]', kind)[-1])].replace(' ', '')
    return kind in HANDLES


def rule_check(result, name, count, parameters):
    """C++ that calls `name` with zero arguments and exits 4 when it breaks
    the NULL rule of meshvk/meshvk.h, or '' when the rule does not apply."""
    call = f'{name}({", ".join(["{}"] * count)})'
    if name in ZERO_IS_VALID or re.search(r'_(release|retain|free|abort)$', name):
        return ''
    if result == 'meshvk_status_t':
        return (f'meshvk_status_t s = {call}; const bool bad = meshvk_status_code(s) != MESHVK_STATUS_INVALID_ARGUMENT; '
                f'meshvk_status_free(s); if (bad) _exit(4);')
    if result == 'void' or not count or not first_handle(parameters):
        return ''
    none = 'MESHVK_NO_PROCESS' if name.endswith('_process') and result == 'uint32_t' else 'decltype(v){}'
    return f'const auto v = {call}; if (!(v == {none})) _exit(4);'


def check_timeouts(header_paths):
    """Every timeout of the API is a meshvk_timeout_t (meshvk/meshvk.h)."""
    wrong = []
    for path in header_paths:
        text = re.sub(r'//[^\n]*', '', open(path).read())
        for match in re.finditer(r'([A-Za-z_0-9]+)\s+\**(\w*timeout\w*)\s*[,;)]', text):
            if match.group(1) not in ("meshvk_timeout_t", "typedef") and match.group(2) != "meshvk_timeout_t":
                wrong.append(f'{path}: {match.group(1)} {match.group(2)}')
    if wrong:
        sys.exit('null_argument_sweep.py: timeouts must be meshvk_timeout_t: ' + '; '.join(wrong))


def hostile_argument(parameter, variant):
    """variant: 'zero' (integers 0), 'max' (integers at their maximum) or
    'zeroed' (integers 0, and every `const meshvk_..._t*` input points to a
    zero-filled struct instead of NULL)."""
    declaration = ' '.join(parameter.split())
    name = re.split(r'[\s*]', declaration.split('[')[0])[-1]
    kind = declaration[:declaration.rfind(name)].replace('const ', '').replace(' ', '')
    if '[' in declaration:
        return 'nullptr'
    if kind in HANDLES:
        return HANDLES[kind]
    if (variant == 'zeroed' and declaration.startswith('const meshvk_') and kind.endswith('_t*')
            and kind.count('*') == 1):
        return f'&kZeroed<{kind[:-1]}>'
    if '*' in kind:
        return 'nullptr'
    if kind in INTEGERS:
        if 'timeout' in name or variant != 'max':
            return '0'
        return f'std::numeric_limits<{kind}>::max()'
    return '{}'  # enums, Vulkan handles, statuses: zero


def call_statement(result, call):
    """`call` as a statement that frees a returned status and discards any
    other result."""
    if result == 'meshvk_status_t':
        return f'meshvk_status_free({call});'
    if result == 'void':
        return f'{call};'
    return f'(void){call};'


def hostile_table(found):
    rows = []
    for result, name, count, parameters in found:
        if re.search(r'_(release|retain|destroy|free|abort)$', name) or name == 'meshvk_leaked_object_count':
            continue
        split = [p for p in parameters.split(',')] if count else []
        variants = ['zero', 'max']
        if any(hostile_argument(p, 'zeroed') != hostile_argument(p, 'zero') for p in split):
            variants.append('zeroed')
        for variant in variants:
            arguments = ', '.join(hostile_argument(p, variant) for p in split)
            body = call_statement(result, f'{name}({arguments})')
            label = re.sub(r'std::numeric_limits<\w+>::max\(\)', 'MAX', f'{name}({arguments})')
            rows.append(f'    {{"{label}", [](const Handles& h) {{ (void)h; {body} }}}},')
    return rows


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ('sweep', 'table'):
        sys.exit('usage: null_argument_sweep.py sweep|table OUT HEADER...')
    found = declarations(sys.argv[3:])
    if len(found) < 100:
        sys.exit(f'null_argument_sweep.py: only {len(found)} declarations found; the pattern no longer matches the headers')
    if sys.argv[1] == 'table':
        with open(sys.argv[2], 'w') as out:
            out.write('// Generated by tests/runtime/null_argument_sweep.py from the public headers.\n')
            out.write('\n'.join(hostile_table(found)) + '\n')
        return
    check_timeouts(sys.argv[3:])
    calls = []
    for result, name, count, parameters in found:
        body = rule_check(result, name, count, parameters) or call_statement(
            result, f'{name}({", ".join(["{}"] * count)})')
        calls.append(f'    {{"{name}", [] {{ {body} }}}},')
    with open(sys.argv[2], 'w') as out:
        out.write(f'''// Generated by tests/runtime/null_argument_sweep.py from the public headers.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "meshvk/meshvk.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"
#include "meshvk/transport_mpi.h"
#include "meshvk/vulkan.h"

namespace {{
struct Call {{
  const char* name;
  void (*run)();
}};
const Call kCalls[] = {{
{chr(10).join(calls)}
}};
}}  // namespace

int main() {{
  int failed = 0;
  for (const Call& call : kCalls) {{
    pid_t child = fork();
    if (child == 0) {{
      call.run();
      _exit(meshvk_leaked_object_count() == 0 ? 0 : 3);
    }}
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) {{
      std::printf("%s with zero arguments: killed by signal %d\\n", call.name, WTERMSIG(status));
      ++failed;
    }} else if (WEXITSTATUS(status) == 4) {{
      std::printf("%s with zero arguments: not INVALID_ARGUMENT (or \\"none\\" for a NULL handle: 0, NULL, "
                  "MESHVK_NO_PROCESS)\\n", call.name);
      ++failed;
    }} else if (WEXITSTATUS(status) != 0) {{
      std::printf("%s with zero arguments: exit %d (3: an object left alive)\\n", call.name, WEXITSTATUS(status));
      ++failed;
    }}
  }}
  std::printf("%zu functions called with zero arguments, %d failed\\n", sizeof(kCalls) / sizeof(kCalls[0]), failed);
  return failed == 0 ? 0 : 1;
}}
''')


if __name__ == '__main__':
    main()
