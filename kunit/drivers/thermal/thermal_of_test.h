/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device tree blobs linked into the thermal_of KUnit suite.
 *
 * cmd_dt_S_dtb turns each thermal_of_test_<name>.dts next to this file
 * into an object with __dtb_thermal_of_test_<name>_begin/_end around the
 * compiled blob.
 */
#ifndef _THERMAL_OF_TEST_H
#define _THERMAL_OF_TEST_H

#include <linux/types.h>

#define THERMAL_OF_TEST_DTB(name)				\
	extern u8 __dtb_thermal_of_test_##name##_begin[];	\
	extern u8 __dtb_thermal_of_test_##name##_end[]

THERMAL_OF_TEST_DTB(root);
THERMAL_OF_TEST_DTB(zones);
THERMAL_OF_TEST_DTB(nosensor);
THERMAL_OF_TEST_DTB(badcells);

#endif /* _THERMAL_OF_TEST_H */
