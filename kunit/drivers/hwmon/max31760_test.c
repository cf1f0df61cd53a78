// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the MAX31760 fan-speed controller driver
 * (drivers/hwmon/max31760.c).
 *
 * The driver is probed for real.  Each case registers a mock I2C adapter
 * whose master_xfer() serves a 256-byte register array with the chip's
 * auto-incrementing register pointer, instantiates a "max31760" client on
 * it with i2c_new_client_device() and lets the driver build its own regmap
 * (devm_regmap_init_i2c() with its own regmap_config) on that bus.  The
 * mock counts bus reads and writes per register, so a case can tell a
 * value served by the bus from one served by the regmap cache.
 *
 * The hwmon paths are driven through the sysfs attributes of the hwmon
 * device the driver registers below the client: a case looks an attribute
 * up by name in that device's attribute groups and calls its show() or
 * store(), which is what a read or write of /sys/class/hwmon/hwmonN/<name>
 * ends up calling once kernfs is out of the way.  That covers the hwmon
 * core's name-to-channel mapping as well as the driver's conversions, and
 * it needs no mounted sysfs (there is none when built-in tests run).
 *
 * Expected register addresses, bit positions and encodings are taken from
 * the MAX31760 datasheet (Analog Devices/Maxim, "Register Map" table and
 * the register descriptions that follow it) and are written out as
 * literals, not borrowed from the driver's #defines.
 *
 * Lifecycle: init() registers the adapter and probes the client (so every
 * case starts from the datasheet's power-on register values plus what the
 * probe wrote), the case runs, exit() unregisters client and adapter.
 * exit() copes with an init() that failed half way.
 */

#include <linux/build_bug.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/regmap.h>

#include "hwmon_test_regfile.h"

#define MAX31760_TEST_ADDR	0x50	/* any address the test owns */

/* Datasheet register addresses (Register Map table). */
#define DS_CR1		0x00
#define DS_CR2		0x01
#define DS_CR3		0x02
#define DS_RHSH		0x06	/* remote high set-point, MSB */
#define DS_LOTSH	0x08	/* local overtemperature set-point, MSB */
#define DS_ROTSH	0x0a	/* remote overtemperature set-point, MSB */
#define DS_LHSH		0x0c	/* local high set-point, MSB */
#define DS_LUT(n)	(0x20 + (n))	/* 48-byte lookup table */
#define DS_PWMR		0x50	/* direct duty-cycle control */
#define DS_PWMV		0x51	/* current duty cycle, read only */
#define DS_TC1H		0x52
#define DS_TC2H		0x54
#define DS_RTH		0x56	/* remote temperature, MSB */
#define DS_LTH		0x58	/* local temperature, MSB */
#define DS_SR		0x5a	/* status */
#define DS_EEX		0x5b	/* last register */

struct max31760_ctx {
	struct hwmon_test_regfile mock;	/* first: hwmon_test_regs() */
	struct regmap *map;
};

static_assert(offsetof(struct max31760_ctx, mock) == 0);

/*
 * Power-on values from the "POR state" column of the datasheet's register
 * map; everything else powers up as 0.
 */
static const u8 max31760_por[] = {
	[0x00] = 0x01, [0x01] = 0x10, [0x02] = 0x03, [0x03] = 0xff,
	[0x04] = 0xc0, [0x05] = 0x18, [0x06] = 0x55, [0x08] = 0x55,
	[0x0a] = 0x6e, [0x0c] = 0x46, [0x0e] = 0xff, [0x0f] = 0xfe,
};

static int max31760_test_init(struct kunit *test)
{
	struct i2c_board_info info = {
		I2C_BOARD_INFO("max31760", MAX31760_TEST_ADDR),
	};
	struct max31760_ctx *ctx;
	struct hwmon_test_regfile *m;
	int ret;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	m = &ctx->mock;

	memcpy(m->regs, max31760_por, sizeof(max31760_por));
	ret = hwmon_test_regfile_add(m, "kunit-max31760", MAX31760_TEST_ADDR,
				     false);
	if (ret)
		return ret;

	/* A modular driver would otherwise race its udev-driven load. */
	if (IS_MODULE(CONFIG_SENSORS_MAX31760))
		request_module("max31760");

	ret = hwmon_test_new_client(m, &info);
	if (!ret)
		kunit_err(test, "max31760 did not bind to the mock client\n");
	if (ret <= 0)
		return ret ?: -ENODEV;
	ctx->map = dev_get_regmap(&m->client->dev, NULL);
	if (!ctx->map)
		return -ENODEV;
	return 0;
}

static void max31760_test_exit(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;

	if (!ctx)
		return;
	hwmon_test_client_del(&ctx->mock);
	hwmon_test_regfile_del(&ctx->mock);
}

/* Show @name of the hwmon device; returns 0 or a negative errno. */
static int max31760_test_show(struct kunit *test, const char *name, long *val)
{
	struct max31760_ctx *ctx = test->priv;

	return hwmon_test_show(test, ctx->mock.hwmon, name, val);
}

static int max31760_test_store(struct kunit *test, const char *name,
			       const char *str)
{
	struct max31760_ctx *ctx = test->priv;

	return hwmon_test_store(test, ctx->mock.hwmon, name, str);
}

static unsigned int max31760_test_total_writes(struct max31760_ctx *ctx)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(ctx->mock.writes); i++)
		n += ctx->mock.writes[i];
	return n;
}

/*
 * The probe puts ALERT into comparator mode: CR2 bit 6 (ALERTS) set, the
 * other CR2 bits kept at their power-on value, and no other register
 * written.
 */
static void hwmon_max31760_test_probe_comparator_mode(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	unsigned int reg;

	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR2], 0x50);
	KUNIT_EXPECT_EQ(test, ctx->mock.probe_writes[DS_CR2], 1);
	for (reg = 0; reg < ARRAY_SIZE(ctx->mock.probe_writes); reg++)
		if (reg != DS_CR2)
			KUNIT_EXPECT_EQ_MSG(test, ctx->mock.probe_writes[reg], 0,
					    "probe wrote register %#x", reg);
}

/*
 * Register blocks of the datasheet's register map.  Registers the
 * datasheet marks read-only (the measured duty cycle, TACH counts,
 * temperatures and status) change under the host's feet and must be
 * volatile; so must EEX, a write-only command register.  Everything the
 * host programs (control, set-points, user memory, LUT, PWMR) is plain
 * memory and may be cached.  0x18-0x1f is reserved and not listed.
 */
struct max31760_reg_block {
	const char *name;
	u8 first;
	u8 last;
	bool volatile_reg;
};

static const struct max31760_reg_block max31760_reg_blocks[] = {
	{ "CR1-CR3", 0x00, 0x02, false },
	{ "FFDC MASK IFR", 0x03, 0x05, false },
	{ "temperature set-points", 0x06, 0x0d, false },
	{ "TACH count threshold", 0x0e, 0x0f, false },
	{ "USER memory", 0x10, 0x17, false },
	{ "LUT", 0x20, 0x4f, false },
	{ "PWMR", 0x50, 0x50, false },
	{ "PWMV", 0x51, 0x51, true },
	{ "TACH1 TACH2 counts", 0x52, 0x55, true },
	{ "remote and local temperature", 0x56, 0x59, true },
	{ "status", 0x5a, 0x5a, true },
	{ "EEX", 0x5b, 0x5b, true },
};

static void max31760_reg_block_desc(const struct max31760_reg_block *b,
				    char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %#04x-%#04x %s", b->name,
		 b->first, b->last, b->volatile_reg ? "volatile" : "cached");
}

/* Creates max31760_reg_blocks_gen_params() */
KUNIT_ARRAY_PARAM(max31760_reg_blocks, max31760_reg_blocks,
		  max31760_reg_block_desc);

/*
 * Read each register twice with the chip's value changed in between: a
 * volatile register must go to the bus both times and return the new
 * value, a cached one must not touch the bus the second time and must
 * return what it returned first.
 */
static void hwmon_max31760_test_volatile_regs(struct kunit *test)
{
	const struct max31760_reg_block *b = test->param_value;
	struct max31760_ctx *ctx = test->priv;
	struct hwmon_test_regfile *m = &ctx->mock;
	unsigned int reg, first, second, bus_reads;

	for (reg = b->first; reg <= b->last; reg++) {
		m->regs[reg] = 0xa5;
		KUNIT_ASSERT_EQ(test, regmap_read(ctx->map, reg, &first), 0);
		bus_reads = m->reads[reg];
		m->regs[reg] = 0x5a;
		KUNIT_ASSERT_EQ(test, regmap_read(ctx->map, reg, &second), 0);

		if (b->volatile_reg) {
			KUNIT_EXPECT_EQ_MSG(test, first, 0xa5, "reg %#x", reg);
			KUNIT_EXPECT_EQ_MSG(test, second, 0x5a,
					    "volatile reg %#x served from cache",
					    reg);
			KUNIT_EXPECT_EQ_MSG(test, m->reads[reg], bus_reads + 1,
					    "volatile reg %#x", reg);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, second, first,
					    "cached reg %#x re-read", reg);
			KUNIT_EXPECT_EQ_MSG(test, m->reads[reg], bus_reads,
					    "cached reg %#x re-read", reg);
		}
	}
}

/* 0x5b (EEX) is the last register; nothing above it reaches the bus. */
static void hwmon_max31760_test_max_register(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	unsigned int val;

	KUNIT_EXPECT_EQ(test, regmap_write(ctx->map, DS_EEX, 0), 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.writes[DS_EEX], 1);

	KUNIT_EXPECT_EQ(test, regmap_read(ctx->map, DS_EEX + 1, &val), -EIO);
	KUNIT_EXPECT_EQ(test, regmap_write(ctx->map, DS_EEX + 1, 0), -EIO);
	KUNIT_EXPECT_EQ(test, ctx->mock.reads[DS_EEX + 1], 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.writes[DS_EEX + 1], 0);
}

/*
 * TACH counts (TC1H/TC1L at 0x52, TC2H/TC2L at 0x54, MSB first) are the
 * number of 10 us (100 kHz) periods in one tach period.  With the two
 * tach pulses per revolution the driver assumes, RPM = 60 s / (2 * count *
 * 10 us) = 3,000,000 / count, evaluated as 6,000,000 / count / 2 in
 * integers.  A count of 0 is treated as 1.  The other channel holds a
 * count of 1, so reading the wrong registers shows up as 3,000,000.
 */
struct max31760_tach_case {
	const char *name;
	int channel;
	u16 count;
	long rpm;
};

static const struct max31760_tach_case max31760_tach_cases[] = {
	{ "fan1 count 0 clamps to 1", 0, 0x0000, 3000000 },
	{ "fan1 count 1", 0, 0x0001, 3000000 },
	{ "fan1 count 300", 0, 0x012c, 10000 },
	{ "fan1 count 1500", 0, 0x05dc, 2000 },
	{ "fan1 count 3000", 0, 0x0bb8, 1000 },
	{ "fan1 count 4660", 0, 0x1234, 643 },
	{ "fan1 count 0xffff", 0, 0xffff, 45 },
	{ "fan2 count 3000", 1, 0x0bb8, 1000 },
	{ "fan2 count 0xffff", 1, 0xffff, 45 },
};

static void max31760_tach_desc(const struct max31760_tach_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates max31760_tach_gen_params() */
KUNIT_ARRAY_PARAM(max31760_tach, max31760_tach_cases, max31760_tach_desc);

static void hwmon_max31760_test_fan_input(struct kunit *test)
{
	const struct max31760_tach_case *t = test->param_value;
	struct max31760_ctx *ctx = test->priv;
	u8 *regs = ctx->mock.regs;
	u8 mine = t->channel ? DS_TC2H : DS_TC1H;
	u8 other = t->channel ? DS_TC1H : DS_TC2H;
	char name[16];
	long val;

	regs[mine] = t->count >> 8;
	regs[mine + 1] = t->count & 0xff;
	regs[other] = 0x00;
	regs[other + 1] = 0x01;

	snprintf(name, sizeof(name), "fan%d_input", t->channel + 1);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, name, &val), 0);
	KUNIT_EXPECT_EQ(test, val, t->rpm);
	KUNIT_EXPECT_EQ(test, ctx->mock.reads[mine], 1);
	KUNIT_EXPECT_EQ(test, ctx->mock.reads[mine + 1], 1);
}

/*
 * Temperatures (RTH/RTL at 0x56 for temp1 = remote, LTH/LTL at 0x58 for
 * temp2 = local) are 11-bit two's complement, left-justified in 16 bits,
 * 0.125 degC per LSB.  The other channel holds +127.875 degC.
 */
struct max31760_temp_case {
	const char *name;
	int channel;
	u8 msb;
	u8 lsb;
	long millicelsius;
};

static const struct max31760_temp_case max31760_temp_cases[] = {
	{ "remote +127.875", 0, 0x7f, 0xe0, 127875 },
	{ "remote +25", 0, 0x19, 0x00, 25000 },
	{ "remote +0.125", 0, 0x00, 0x20, 125 },
	{ "remote 0", 0, 0x00, 0x00, 0 },
	{ "remote -0.125", 0, 0xff, 0xe0, -125 },
	{ "remote -1", 0, 0xff, 0x00, -1000 },
	{ "remote -25.5", 0, 0xe6, 0x80, -25500 },
	{ "remote -55", 0, 0xc9, 0x00, -55000 },
	{ "remote -128", 0, 0x80, 0x00, -128000 },
	{ "local +70.25", 1, 0x46, 0x40, 70250 },
	{ "local -40", 1, 0xd8, 0x00, -40000 },
	{ "local -0.125", 1, 0xff, 0xe0, -125 },
};

static void max31760_temp_desc(const struct max31760_temp_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates max31760_temp_gen_params() */
KUNIT_ARRAY_PARAM(max31760_temp, max31760_temp_cases, max31760_temp_desc);

static void hwmon_max31760_test_temp_input(struct kunit *test)
{
	const struct max31760_temp_case *t = test->param_value;
	struct max31760_ctx *ctx = test->priv;
	u8 *regs = ctx->mock.regs;
	u8 mine = t->channel ? DS_LTH : DS_RTH;
	u8 other = t->channel ? DS_RTH : DS_LTH;
	char name[16];
	long val;

	regs[mine] = t->msb;
	regs[mine + 1] = t->lsb;
	regs[other] = 0x7f;
	regs[other + 1] = 0xe0;

	snprintf(name, sizeof(name), "temp%d_input", t->channel + 1);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, name, &val), 0);
	KUNIT_EXPECT_EQ(test, val, t->millicelsius);
}

/*
 * temp1_max/temp1_crit are the remote high (ALERT) and overtemperature
 * (SHDN) set-points at 0x06 and 0x0a; temp2_max/temp2_crit are the local
 * high and overtemperature set-points, which the datasheet places at 0x0c
 * and 0x08 (local before remote for the overtemperature pair, after it
 * for the high pair).  Each set-point is an MSB/LSB pair in the
 * temperature format; writes round to the nearest 0.125 degC and clamp to
 * -128..+127.875 degC.
 */
struct max31760_limit_case {
	const char *name;
	const char *attr;
	const char *input;
	u8 reg;
	u8 msb;
	u8 lsb;
	long readback;
};

static const struct max31760_limit_case max31760_limit_cases[] = {
	{ "remote high 90", "temp1_max", "90000", DS_RHSH, 0x5a, 0x00, 90000 },
	{ "remote high -40", "temp1_max", "-40000", DS_RHSH, 0xd8, 0x00,
	  -40000 },
	{ "remote high rounds down", "temp1_max", "90062", DS_RHSH, 0x5a, 0x00,
	  90000 },
	{ "remote high rounds up", "temp1_max", "90063", DS_RHSH, 0x5a, 0x20,
	  90125 },
	{ "remote high clamps +", "temp1_max", "200000", DS_RHSH, 0x7f, 0xe0,
	  127875 },
	{ "remote high clamps -", "temp1_max", "-200000", DS_RHSH, 0x80, 0x00,
	  -128000 },
	{ "remote OT 110.125", "temp1_crit", "110125", DS_ROTSH, 0x6e, 0x20,
	  110125 },
	{ "local high 75", "temp2_max", "75000", DS_LHSH, 0x4b, 0x00, 75000 },
	{ "local OT 95.5", "temp2_crit", "95500", DS_LOTSH, 0x5f, 0x80, 95500 },
	{ "local OT -0.125", "temp2_crit", "-125", DS_LOTSH, 0xff, 0xe0, -125 },
};

static void max31760_limit_desc(const struct max31760_limit_case *t,
				char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s: %s=%s", t->name, t->attr,
		 t->input);
}

/* Creates max31760_limit_gen_params() */
KUNIT_ARRAY_PARAM(max31760_limit, max31760_limit_cases, max31760_limit_desc);

/* A limit write lands in exactly its MSB/LSB pair and reads back rounded. */
static void hwmon_max31760_test_temp_limit_write(struct kunit *test)
{
	const struct max31760_limit_case *t = test->param_value;
	struct max31760_ctx *ctx = test->priv;
	struct hwmon_test_regfile *m = &ctx->mock;
	long val;

	KUNIT_ASSERT_EQ(test, max31760_test_store(test, t->attr, t->input), 0);
	KUNIT_EXPECT_EQ(test, m->regs[t->reg], t->msb);
	KUNIT_EXPECT_EQ(test, m->regs[t->reg + 1], t->lsb);
	KUNIT_EXPECT_EQ(test, m->writes[t->reg], 1);
	KUNIT_EXPECT_EQ(test, m->writes[t->reg + 1], 1);
	KUNIT_EXPECT_EQ(test, max31760_test_total_writes(ctx), 2);

	KUNIT_ASSERT_EQ(test, max31760_test_show(test, t->attr, &val), 0);
	KUNIT_EXPECT_EQ(test, val, t->readback);
}

/* Each limit attribute reads its own set-point register pair. */
static void hwmon_max31760_test_temp_limit_read(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	u8 *regs = ctx->mock.regs;
	long val;

	regs[DS_RHSH] = 0x50;	/* 80 degC */
	regs[DS_LOTSH] = 0x5f;	/* 95 degC */
	regs[DS_ROTSH] = 0x64;	/* 100 degC */
	regs[DS_LHSH] = 0x4b;	/* 75 degC */

	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "temp1_max", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 80000);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "temp1_crit", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 100000);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "temp2_max", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 75000);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "temp2_crit", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 95000);
}

/*
 * Status register (0x5a): bit 0 TACH1 alarm, bit 1 TACH2 alarm, bit 2
 * remote overtemperature, bit 3 remote high, bit 4 local
 * overtemperature, bit 5 local high, bit 6 remote diode fault.  Each
 * attribute must follow its own bit and ignore the others.
 */
struct max31760_status_case {
	const char *attr;
	u8 bit;
};

static const struct max31760_status_case max31760_status_cases[] = {
	{ "fan1_fault", 0 },
	{ "fan2_fault", 1 },
	{ "temp1_crit_alarm", 2 },
	{ "temp1_max_alarm", 3 },
	{ "temp2_crit_alarm", 4 },
	{ "temp2_max_alarm", 5 },
	{ "temp1_fault", 6 },
};

static void max31760_status_desc(const struct max31760_status_case *t,
				 char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s bit %u", t->attr, t->bit);
}

/* Creates max31760_status_gen_params() */
KUNIT_ARRAY_PARAM(max31760_status, max31760_status_cases,
		  max31760_status_desc);

static void hwmon_max31760_test_status_bits(struct kunit *test)
{
	const struct max31760_status_case *t = test->param_value;
	struct max31760_ctx *ctx = test->priv;
	long val;

	ctx->mock.regs[DS_SR] = BIT(t->bit);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, t->attr, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 1);

	ctx->mock.regs[DS_SR] = (u8)~BIT(t->bit);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, t->attr, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0);
}

/*
 * pwm1 reads the duty cycle the chip is driving (PWMV, 0x51) and writes
 * the direct duty-cycle request (PWMR, 0x50); 0..255 only.
 */
static void hwmon_max31760_test_pwm_input(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	struct hwmon_test_regfile *m = &ctx->mock;
	long val;

	m->regs[DS_PWMR] = 0x11;
	m->regs[DS_PWMV] = 0x80;
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "pwm1", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 128);

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1", "200"), 0);
	KUNIT_EXPECT_EQ(test, m->regs[DS_PWMR], 200);
	KUNIT_EXPECT_EQ(test, m->writes[DS_PWMR], 1);
	KUNIT_EXPECT_EQ(test, m->writes[DS_PWMV], 0);

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1", "256"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1", "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, max31760_test_total_writes(ctx), 1);
}

/*
 * pwm1_enable 1 (manual) sets CR2 bit 0 (DFC, direct fan control), 2
 * (automatic, LUT driven) clears it; other CR2 bits are kept.
 */
static void hwmon_max31760_test_pwm_enable(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	long val;

	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "pwm1_enable", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 2);

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1_enable", "1"), 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR2], 0x51);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "pwm1_enable", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 1);

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1_enable", "2"), 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR2], 0x50);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "pwm1_enable", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 2);

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1_enable", "0"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1_enable", "3"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR2], 0x50);
}

/*
 * PWM frequency is CR1 bits 4:3 (DRV): 00 = 33 Hz, 01 = 150 Hz,
 * 10 = 1500 Hz, 11 = 25 kHz.  A write picks the closest one; the other
 * CR1 bits (power-on 0x01) are kept.
 */
struct max31760_freq_case {
	const char *input;
	u8 cr1;
	long readback;
};

static const struct max31760_freq_case max31760_freq_cases[] = {
	{ "33", 0x01, 33 },
	{ "100", 0x09, 150 },
	{ "150", 0x09, 150 },
	{ "1000", 0x11, 1500 },
	{ "1500", 0x11, 1500 },
	{ "20000", 0x19, 25000 },
	{ "25000", 0x19, 25000 },
};

static void max31760_freq_desc(const struct max31760_freq_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "pwm1_freq=%s", t->input);
}

/* Creates max31760_freq_gen_params() */
KUNIT_ARRAY_PARAM(max31760_freq, max31760_freq_cases, max31760_freq_desc);

static void hwmon_max31760_test_pwm_freq(struct kunit *test)
{
	const struct max31760_freq_case *t = test->param_value;
	struct max31760_ctx *ctx = test->priv;
	long val;

	KUNIT_ASSERT_EQ(test, max31760_test_store(test, "pwm1_freq", t->input),
			0);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR1], t->cr1);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "pwm1_freq", &val), 0);
	KUNIT_EXPECT_EQ(test, val, t->readback);
}

/* The frequency read decodes all four DRV values. */
static void hwmon_max31760_test_pwm_freq_read(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	long val;

	ctx->mock.regs[DS_CR1] = 0x18 | 0x01;
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "pwm1_freq", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 25000);
	KUNIT_EXPECT_EQ(test, ctx->mock.reads[DS_CR1], 1);
}

/*
 * Temperature source for the LUT is CR1 bit 0 (TIS: 0 local, 1 remote)
 * and bit 1 (MTI: use the greater of the two).  hwmon numbers remote as
 * temp1 and local as temp2, so 1 -> TIS=1, 2 -> TIS=0, 3 -> MTI=1.
 */
struct max31760_src_case {
	const char *input;
	int ret;
	u8 cr1;
	long readback;
};

static const struct max31760_src_case max31760_src_cases[] = {
	{ "1", 0, 0x01, 1 },
	{ "2", 0, 0x00, 2 },
	{ "3", 0, 0x02, 3 },
	{ "0", -EINVAL, 0x01, 1 },
	{ "4", -EINVAL, 0x01, 1 },
};

static void max31760_src_desc(const struct max31760_src_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "pwm1_auto_channels_temp=%s",
		 t->input);
}

/* Creates max31760_src_gen_params() */
KUNIT_ARRAY_PARAM(max31760_src, max31760_src_cases, max31760_src_desc);

static void hwmon_max31760_test_pwm_auto_channels(struct kunit *test)
{
	const struct max31760_src_case *t = test->param_value;
	struct max31760_ctx *ctx = test->priv;
	long val;

	KUNIT_EXPECT_EQ(test, max31760_test_store(test,
						  "pwm1_auto_channels_temp",
						  t->input), t->ret);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR1], t->cr1);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test,
						 "pwm1_auto_channels_temp",
						 &val), 0);
	KUNIT_EXPECT_EQ(test, val, t->readback);
}

/* fanN_enable is CR3 bit N-1 (TACH1E, TACH2E); power-on both enabled. */
static void hwmon_max31760_test_fan_enable(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	long val;

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "fan1_enable", "0"), 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR3], 0x02);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "fan1_enable", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "fan2_enable", &val), 0);
	KUNIT_EXPECT_EQ(test, val, 1);

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "fan2_enable", "0"), 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR3], 0x00);
	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "fan1_enable", "1"), 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR3], 0x01);

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "fan2_enable", "2"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_CR3], 0x01);
}

/*
 * pwm1_auto_pointN_pwm is LUT byte N-1 (0x20..0x4f); the hysteresis is
 * CR1 bit 5 (HYST: 0 = 2 degC, 1 = 4 degC).  A duty cycle above 255 is
 * refused with kstrtou8()'s -ERANGE, and nothing reaches the chip.
 * (Documentation/hwmon/sysfs-interface.rst suggests clamping continuous
 * values; lut_store() in 6.1.192 parses with kstrtou8() and returns its
 * error, and that is what is pinned here.)
 */
static void hwmon_max31760_test_lut(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	struct hwmon_test_regfile *m = &ctx->mock;
	long val;
	u8 lut1;

	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1_auto_point1_pwm",
						  "10"), 0);
	KUNIT_EXPECT_EQ(test, m->regs[DS_LUT(0)], 10);
	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1_auto_point48_pwm",
						  "255"), 0);
	KUNIT_EXPECT_EQ(test, m->regs[DS_LUT(47)], 255);
	KUNIT_EXPECT_EQ(test, max31760_test_total_writes(ctx), 2);
	lut1 = m->regs[DS_LUT(1)];
	KUNIT_EXPECT_EQ(test, max31760_test_store(test, "pwm1_auto_point2_pwm",
						  "256"), -ERANGE);
	KUNIT_EXPECT_EQ(test, m->regs[DS_LUT(1)], lut1);
	KUNIT_EXPECT_EQ(test, max31760_test_total_writes(ctx), 2);

	m->regs[DS_LUT(23)] = 0x77;
	KUNIT_ASSERT_EQ(test, max31760_test_show(test, "pwm1_auto_point24_pwm",
						 &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0x77);

	KUNIT_ASSERT_EQ(test, max31760_test_show(test,
						 "pwm1_auto_point_temp_hyst",
						 &val), 0);
	KUNIT_EXPECT_EQ(test, val, 2000);
	KUNIT_EXPECT_EQ(test, max31760_test_store(test,
						  "pwm1_auto_point_temp_hyst",
						  "4000"), 0);
	KUNIT_EXPECT_EQ(test, m->regs[DS_CR1], 0x21);
	KUNIT_ASSERT_EQ(test, max31760_test_show(test,
						 "pwm1_auto_point_temp_hyst",
						 &val), 0);
	KUNIT_EXPECT_EQ(test, val, 4000);
	KUNIT_EXPECT_EQ(test, max31760_test_store(test,
						  "pwm1_auto_point_temp_hyst",
						  "2000"), 0);
	KUNIT_EXPECT_EQ(test, m->regs[DS_CR1], 0x01);
}

/* temp1 is the remote diode, temp2 the die. */
static void hwmon_max31760_test_temp_labels(struct kunit *test)
{
	struct max31760_ctx *ctx = test->priv;
	struct device_attribute *da;
	char *buf;

	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	da = hwmon_test_attr(test, ctx->mock.hwmon, "temp1_label");
	KUNIT_EXPECT_GT(test, da->show(ctx->mock.hwmon, da, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "remote\n");

	da = hwmon_test_attr(test, ctx->mock.hwmon, "temp2_label");
	KUNIT_EXPECT_GT(test, da->show(ctx->mock.hwmon, da, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "local\n");
}

/*
 * Issue 15, seeded bad input: every writable attribute, at, just inside
 * and just outside its documented range on both sides, plus huge and
 * malformed input, and a seeded batch of random values.  An accepted
 * value must program exactly the registers the datasheet names for it,
 * with the datasheet's encoding, and nothing else; a refused one must
 * return the driver's errno and leave the whole register file as it was
 * (no bus write at all).
 *
 * Writes go through the hwmon core, which parses with kstrtol(): a number
 * outside long is -ERANGE, anything that is not a decimal is -EINVAL,
 * before the driver sees it.  The LUT and hysteresis attributes are the
 * driver's own and parse with kstrtou8()/kstrtou32().
 */
/* Program @reg through the driver's regmap, so the cache agrees. */
static void max31760_test_preset(struct kunit *test, u8 reg, u8 val)
{
	struct max31760_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, regmap_write(ctx->map, reg, val), 0);
	KUNIT_ASSERT_EQ(test, ctx->mock.regs[reg], val);
}

/*
 * Temperature set-points (datasheet "Register Map", RHSH/RHSL 06h-07h,
 * LOTSH/LOTSL 08h-09h, ROTSH/ROTSL 0Ah-0Bh, LHSH/LHSL 0Ch-0Dh): 11-bit
 * two's complement, left-justified, 0.125 degC per LSB, so the register
 * range is -128.000 .. +127.875 degC.  The hwmon ABI (sysfs-interface
 * "temp[1-*]_max", "temp[1-*]_crit") takes millidegrees; the driver
 * rounds to the nearest LSB (halves away from zero) and clamps any long
 * into the register range.  Documentation/hwmon/max31760.rst gives the
 * measurement range as -55..+125 degC; the set-points are not limited to
 * it in 6.1.192 (nor by the datasheet), the rows at -55 and +125 pin the
 * documented edges.  Each row is written to all four set-points.
 */
struct max31760_tlim_case {
	const char *input;
	int ret;
	u8 msb;
	u8 lsb;
};

static const struct max31760_tlim_case max31760_tlim_cases[] = {
	{ "-9223372036854775809", -ERANGE },		/* below long */
	{ "-9223372036854775808", 0, 0x80, 0x00 },	/* LONG_MIN clamps */
	{ "-200000", 0, 0x80, 0x00 },
	{ "-128126", 0, 0x80, 0x00 },		/* min - 1 LSB, clamps */
	{ "-128001", 0, 0x80, 0x00 },		/* min - 1 mC, clamps */
	{ "-128000", 0, 0x80, 0x00 },		/* min */
	{ "-127875", 0, 0x80, 0x20 },		/* min + 1 LSB */
	{ "-55000", 0, 0xc9, 0x00 },		/* documented minimum */
	{ "-63", 0, 0xff, 0xe0 },		/* -0.504 LSB rounds to -1 */
	{ "-62", 0, 0x00, 0x00 },		/* -0.496 LSB rounds to 0 */
	{ "0", 0, 0x00, 0x00 },
	{ "62", 0, 0x00, 0x00 },
	{ "63", 0, 0x00, 0x20 },
	{ "125000", 0, 0x7d, 0x00 },		/* documented maximum */
	{ "127750", 0, 0x7f, 0xc0 },		/* max - 1 LSB */
	{ "127875", 0, 0x7f, 0xe0 },		/* max */
	{ "127876", 0, 0x7f, 0xe0 },		/* max + 1 mC, clamps */
	{ "128000", 0, 0x7f, 0xe0 },		/* max + 1 LSB, clamps */
	{ "9223372036854775807", 0, 0x7f, 0xe0 },	/* LONG_MAX clamps */
	{ "9223372036854775808", -ERANGE },		/* above long */
	{ "", -EINVAL },
	{ "abc", -EINVAL },
	{ "90 degC", -EINVAL },
	{ "0x10", -EINVAL },
};

static void max31760_tlim_desc(const struct max31760_tlim_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "temp limits=%s -> %d",
		 t->input[0] ? t->input : "(empty)", t->ret);
}

/* Creates max31760_tlim_gen_params() */
KUNIT_ARRAY_PARAM(max31760_tlim, max31760_tlim_cases, max31760_tlim_desc);

/* hwmon name and MSB address of each set-point (datasheet register map). */
static const struct {
	const char *attr;
	u8 reg;
} max31760_setpoints[] = {
	{ "temp1_max", DS_RHSH },
	{ "temp1_crit", DS_ROTSH },
	{ "temp2_max", DS_LHSH },
	{ "temp2_crit", DS_LOTSH },
};

static void hwmon_max31760_test_temp_limit_range(struct kunit *test)
{
	const struct max31760_tlim_case *t = test->param_value;
	struct hwmon_test_wr set[2];
	char what[64];
	u8 *before;
	long val;
	int i;

	for (i = 0; i < ARRAY_SIZE(max31760_setpoints); i++) {
		const char *attr = max31760_setpoints[i].attr;
		u8 reg = max31760_setpoints[i].reg;

		/* a set-point that differs from the expected result */
		max31760_test_preset(test, reg, 0x33);
		max31760_test_preset(test, reg + 1, 0xa0);
		before = hwmon_test_snapshot(test);
		snprintf(what, sizeof(what), "%s=\"%s\"", attr, t->input);

		KUNIT_EXPECT_EQ_MSG(test, max31760_test_store(test, attr,
							      t->input),
				    t->ret, "%s", what);
		set[0] = (struct hwmon_test_wr){ reg, t->msb };
		set[1] = (struct hwmon_test_wr){ reg + 1, t->lsb };
		hwmon_test_expect_file(test, before, set, t->ret ? 0 : 2,
				       what);
		if (t->ret)
			continue;
		/* and reads back as the register's value */
		KUNIT_ASSERT_EQ(test, max31760_test_show(test, attr, &val), 0);
		KUNIT_EXPECT_EQ_MSG(test, val,
				    (long)(s16)(t->msb << 8 | t->lsb) / 32 * 125,
				    "%s", what);
	}
}

/*
 * The other writable attributes, one row per value.  @pre is programmed
 * through the regmap first (so the cache agrees), chosen to differ from
 * the expected result; @set lists every register the write must leave
 * changed, empty for a refused value.  Sources:
 *  - pwm1: PWMR (50h) holds the direct duty cycle, 00h-FFh; hwmon ABI
 *    pwm[1-*] is 0..255.  The driver refuses anything else with -EINVAL.
 *  - pwm1_enable: CR2 (01h) bit 0 DFC, 1 = PWMR drives the fan, 0 = LUT;
 *    max31760.rst: 1 direct, 2 automatic.  sysfs-interface's 0 (no
 *    control, full speed) is not offered: -EINVAL in 6.1.192.
 *  - pwm1_freq: CR1 (00h) bits 4:3 DRV, 00 33 Hz, 01 150 Hz, 10 1500 Hz,
 *    11 25 kHz.  Any long is accepted; the closest frequency is taken,
 *    a tie (825, 13250) going to the lower one (find_closest()).
 *  - pwm1_auto_channels_temp: CR1 bit 0 TIS (1 remote, 0 local), bit 1
 *    MTI (greater of both); max31760.rst: 1 temp1 (remote), 2 temp2
 *    (local), 3 both.  Others -EINVAL.
 *  - fan[1-2]_enable: CR3 (02h) bit 0 TACH1E, bit 1 TACH2E; 0 or 1,
 *    others -EINVAL.
 *  - pwm1_auto_point[1-48]_pwm: LUT byte N-1 at 20h-4Fh, 00h-FFh.
 *    kstrtou8(): above 255 -ERANGE, a sign or junk -EINVAL.
 *  - pwm1_auto_point_temp_hyst: CR1 bit 5 HYST, 0 = 2 degC, 1 = 4 degC.
 *    max31760.rst says "either 2000mC or 4000mC"; 6.1.192 takes any u32
 *    (kstrtou32()) and picks 4 degC from 3000 up; a sign or junk is
 *    -EINVAL, above U32_MAX -ERANGE.
 *  - the read-only attributes (0444: tempN_input, _fault, _max_alarm,
 *    _crit_alarm, _label, fanN_input, _fault): root's write passes
 *    sysfs's permission check (CAP_DAC_OVERRIDE) and the hwmon core
 *    hands it to max31760_write() as any store (a number: kstrtol()
 *    first), which refuses an attribute it does not write with
 *    -EOPNOTSUPP.
 * CR1 powers up 01h, CR2 is 50h after the probe, CR3 powers up 03h.
 */
struct max31760_write_case {
	const char *attr;
	const char *input;
	int ret;
	int npre;
	struct hwmon_test_wr pre[1];
	int nset;
	struct hwmon_test_wr set[1];
};

#define MAX31760_OK(a, in, p, pv, r, v)					\
	{ .attr = a, .input = in, .npre = 1, .pre = { { p, pv } },	\
	  .nset = 1, .set = { { r, v } } }
#define MAX31760_NO(a, in, err, p, pv)					\
	{ .attr = a, .input = in, .ret = err, .npre = 1,		\
	  .pre = { { p, pv } } }

static const struct max31760_write_case max31760_write_cases[] = {
	MAX31760_NO("temp1_input", "0", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("temp2_input", "25000", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("temp1_fault", "0", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("temp1_max_alarm", "0", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("temp2_crit_alarm", "1", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("temp1_label", "1", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("temp1_label", "remote", -EINVAL, DS_CR1, 0x01),
	MAX31760_NO("fan1_input", "0", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("fan2_fault", "0", -EOPNOTSUPP, DS_CR1, 0x01),
	MAX31760_NO("pwm1", "-9223372036854775809", -ERANGE, DS_PWMR, 0x80),
	MAX31760_NO("pwm1", "-9223372036854775808", -EINVAL, DS_PWMR, 0x80),
	MAX31760_NO("pwm1", "-1", -EINVAL, DS_PWMR, 0x80),
	MAX31760_OK("pwm1", "0", DS_PWMR, 0x80, DS_PWMR, 0x00),
	MAX31760_OK("pwm1", "1", DS_PWMR, 0x80, DS_PWMR, 0x01),
	MAX31760_OK("pwm1", "254", DS_PWMR, 0x80, DS_PWMR, 0xfe),
	MAX31760_OK("pwm1", "255", DS_PWMR, 0x80, DS_PWMR, 0xff),
	MAX31760_NO("pwm1", "256", -EINVAL, DS_PWMR, 0x80),
	MAX31760_NO("pwm1", "9223372036854775807", -EINVAL, DS_PWMR, 0x80),
	MAX31760_NO("pwm1", "9223372036854775808", -ERANGE, DS_PWMR, 0x80),
	MAX31760_NO("pwm1", "full", -EINVAL, DS_PWMR, 0x80),

	MAX31760_NO("pwm1_enable", "-9223372036854775808", -EINVAL, DS_CR2,
		    0x51),
	MAX31760_NO("pwm1_enable", "-1", -EINVAL, DS_CR2, 0x51),
	MAX31760_NO("pwm1_enable", "0", -EINVAL, DS_CR2, 0x51),
	MAX31760_OK("pwm1_enable", "1", DS_CR2, 0x50, DS_CR2, 0x51),
	MAX31760_OK("pwm1_enable", "2", DS_CR2, 0x51, DS_CR2, 0x50),
	MAX31760_NO("pwm1_enable", "3", -EINVAL, DS_CR2, 0x51),
	MAX31760_NO("pwm1_enable", "9223372036854775807", -EINVAL, DS_CR2,
		    0x51),
	/* the other CR2 bits (STBY 7, ALERTS 6, ...) are kept */
	MAX31760_OK("pwm1_enable", "1", DS_CR2, 0xce, DS_CR2, 0xcf),
	MAX31760_OK("pwm1_enable", "2", DS_CR2, 0xff, DS_CR2, 0xfe),

	MAX31760_NO("pwm1_freq", "-9223372036854775809", -ERANGE, DS_CR1,
		    0x19),
	/* the lowest value whose 150 - x still fits a long; see below */
	MAX31760_OK("pwm1_freq", "-9223372036854775657", DS_CR1, 0x19, DS_CR1,
		    0x01),
	MAX31760_OK("pwm1_freq", "-1", DS_CR1, 0x19, DS_CR1, 0x01),
	MAX31760_OK("pwm1_freq", "0", DS_CR1, 0x19, DS_CR1, 0x01),
	MAX31760_OK("pwm1_freq", "32", DS_CR1, 0x19, DS_CR1, 0x01),
	MAX31760_OK("pwm1_freq", "33", DS_CR1, 0x19, DS_CR1, 0x01),
	MAX31760_OK("pwm1_freq", "34", DS_CR1, 0x19, DS_CR1, 0x01),
	MAX31760_OK("pwm1_freq", "91", DS_CR1, 0x19, DS_CR1, 0x01),
	MAX31760_OK("pwm1_freq", "92", DS_CR1, 0x01, DS_CR1, 0x09),
	MAX31760_OK("pwm1_freq", "149", DS_CR1, 0x01, DS_CR1, 0x09),
	MAX31760_OK("pwm1_freq", "150", DS_CR1, 0x01, DS_CR1, 0x09),
	MAX31760_OK("pwm1_freq", "151", DS_CR1, 0x01, DS_CR1, 0x09),
	MAX31760_OK("pwm1_freq", "825", DS_CR1, 0x01, DS_CR1, 0x09),
	MAX31760_OK("pwm1_freq", "826", DS_CR1, 0x01, DS_CR1, 0x11),
	MAX31760_OK("pwm1_freq", "1499", DS_CR1, 0x01, DS_CR1, 0x11),
	MAX31760_OK("pwm1_freq", "1500", DS_CR1, 0x01, DS_CR1, 0x11),
	MAX31760_OK("pwm1_freq", "1501", DS_CR1, 0x01, DS_CR1, 0x11),
	MAX31760_OK("pwm1_freq", "13250", DS_CR1, 0x01, DS_CR1, 0x11),
	MAX31760_OK("pwm1_freq", "13251", DS_CR1, 0x01, DS_CR1, 0x19),
	MAX31760_OK("pwm1_freq", "24999", DS_CR1, 0x01, DS_CR1, 0x19),
	MAX31760_OK("pwm1_freq", "25000", DS_CR1, 0x01, DS_CR1, 0x19),
	MAX31760_OK("pwm1_freq", "25001", DS_CR1, 0x01, DS_CR1, 0x19),
	MAX31760_OK("pwm1_freq", "9223372036854775807", DS_CR1, 0x01, DS_CR1,
		    0x19),
	MAX31760_NO("pwm1_freq", "9223372036854775808", -ERANGE, DS_CR1,
		    0x01),
	/* the other CR1 bits (HYST 5, MTI 1, TIS 0, ...) are kept */
	MAX31760_OK("pwm1_freq", "1500", DS_CR1, 0xe7, DS_CR1, 0xf7),

	MAX31760_NO("pwm1_auto_channels_temp", "-1", -EINVAL, DS_CR1, 0x02),
	MAX31760_NO("pwm1_auto_channels_temp", "0", -EINVAL, DS_CR1, 0x02),
	MAX31760_OK("pwm1_auto_channels_temp", "1", DS_CR1, 0x02, DS_CR1,
		    0x01),
	MAX31760_OK("pwm1_auto_channels_temp", "2", DS_CR1, 0x03, DS_CR1,
		    0x00),
	MAX31760_OK("pwm1_auto_channels_temp", "3", DS_CR1, 0x01, DS_CR1,
		    0x02),
	MAX31760_NO("pwm1_auto_channels_temp", "4", -EINVAL, DS_CR1, 0x02),
	MAX31760_NO("pwm1_auto_channels_temp", "9223372036854775807", -EINVAL,
		    DS_CR1, 0x02),
	MAX31760_NO("pwm1_auto_channels_temp", "-9223372036854775808",
		    -EINVAL, DS_CR1, 0x02),
	MAX31760_OK("pwm1_auto_channels_temp", "1", DS_CR1, 0x3a, DS_CR1,
		    0x39),

	MAX31760_NO("fan1_enable", "-9223372036854775808", -EINVAL, DS_CR3,
		    0x01),
	MAX31760_NO("fan1_enable", "-1", -EINVAL, DS_CR3, 0x01),
	MAX31760_OK("fan1_enable", "0", DS_CR3, 0x03, DS_CR3, 0x02),
	MAX31760_OK("fan1_enable", "1", DS_CR3, 0x00, DS_CR3, 0x01),
	MAX31760_NO("fan1_enable", "2", -EINVAL, DS_CR3, 0x01),
	MAX31760_NO("fan1_enable", "9223372036854775807", -EINVAL, DS_CR3,
		    0x01),
	MAX31760_NO("fan2_enable", "-1", -EINVAL, DS_CR3, 0x01),
	MAX31760_OK("fan2_enable", "0", DS_CR3, 0x03, DS_CR3, 0x01),
	MAX31760_OK("fan2_enable", "1", DS_CR3, 0x00, DS_CR3, 0x02),
	MAX31760_NO("fan2_enable", "2", -EINVAL, DS_CR3, 0x01),
	/* the other CR3 bits (RAMP 5:4, ...) are kept */
	MAX31760_OK("fan1_enable", "1", DS_CR3, 0x30, DS_CR3, 0x31),
	MAX31760_OK("fan2_enable", "0", DS_CR3, 0x33, DS_CR3, 0x31),

	MAX31760_NO("pwm1_auto_point1_pwm", "-1", -EINVAL, DS_LUT(0), 0x80),
	MAX31760_OK("pwm1_auto_point1_pwm", "0", DS_LUT(0), 0x80, DS_LUT(0),
		    0x00),
	MAX31760_OK("pwm1_auto_point1_pwm", "1", DS_LUT(0), 0x80, DS_LUT(0),
		    0x01),
	MAX31760_OK("pwm1_auto_point1_pwm", "254", DS_LUT(0), 0x80, DS_LUT(0),
		    0xfe),
	MAX31760_OK("pwm1_auto_point1_pwm", "255", DS_LUT(0), 0x80, DS_LUT(0),
		    0xff),
	MAX31760_OK("pwm1_auto_point1_pwm", "+255", DS_LUT(0), 0x80, DS_LUT(0),
		    0xff),
	MAX31760_NO("pwm1_auto_point1_pwm", "256", -ERANGE, DS_LUT(0), 0x80),
	MAX31760_NO("pwm1_auto_point1_pwm", "18446744073709551616", -ERANGE,
		    DS_LUT(0), 0x80),
	MAX31760_NO("pwm1_auto_point1_pwm", "0x10", -EINVAL, DS_LUT(0), 0x80),
	MAX31760_OK("pwm1_auto_point24_pwm", "128", DS_LUT(23), 0x00,
		    DS_LUT(23), 0x80),
	MAX31760_NO("pwm1_auto_point24_pwm", "-128", -EINVAL, DS_LUT(23),
		    0x00),
	MAX31760_OK("pwm1_auto_point48_pwm", "255", DS_LUT(47), 0x00,
		    DS_LUT(47), 0xff),
	MAX31760_NO("pwm1_auto_point48_pwm", "256", -ERANGE, DS_LUT(47),
		    0x00),

	MAX31760_NO("pwm1_auto_point_temp_hyst", "-1", -EINVAL, DS_CR1, 0x21),
	MAX31760_OK("pwm1_auto_point_temp_hyst", "0", DS_CR1, 0x21, DS_CR1,
		    0x01),
	MAX31760_OK("pwm1_auto_point_temp_hyst", "2000", DS_CR1, 0x21, DS_CR1,
		    0x01),
	MAX31760_OK("pwm1_auto_point_temp_hyst", "2999", DS_CR1, 0x21, DS_CR1,
		    0x01),
	MAX31760_OK("pwm1_auto_point_temp_hyst", "3000", DS_CR1, 0x01, DS_CR1,
		    0x21),
	MAX31760_OK("pwm1_auto_point_temp_hyst", "4000", DS_CR1, 0x01, DS_CR1,
		    0x21),
	MAX31760_OK("pwm1_auto_point_temp_hyst", "4294967295", DS_CR1, 0x01,
		    DS_CR1, 0x21),
	MAX31760_NO("pwm1_auto_point_temp_hyst", "4294967296", -ERANGE, DS_CR1,
		    0x21),
	MAX31760_NO("pwm1_auto_point_temp_hyst", "2 degC", -EINVAL, DS_CR1,
		    0x21),
	/* the other CR1 bits are kept */
	MAX31760_OK("pwm1_auto_point_temp_hyst", "4000", DS_CR1, 0xdb, DS_CR1,
		    0xfb),
};

static void max31760_write_desc(const struct max31760_write_case *t,
				char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s=%s from %#04x -> %d",
		 t->attr, t->input, t->pre[0].val, t->ret);
}

/* Creates max31760_write_gen_params() */
KUNIT_ARRAY_PARAM(max31760_write, max31760_write_cases, max31760_write_desc);

static void hwmon_max31760_test_write_range(struct kunit *test)
{
	const struct max31760_write_case *t = test->param_value;
	char what[96];
	u8 *before;
	int i;

	for (i = 0; i < t->npre; i++)
		max31760_test_preset(test, t->pre[i].reg, t->pre[i].val);
	before = hwmon_test_snapshot(test);
	snprintf(what, sizeof(what), "%s=\"%s\"", t->attr, t->input);

	KUNIT_EXPECT_EQ_MSG(test, max31760_test_store(test, t->attr, t->input),
			    t->ret, "%s", what);
	hwmon_test_expect_file(test, before, t->set, t->nset, what);
}

/*
 * pwm1_freq far below the table: LONG_MIN and everything up to 150 -
 * LONG_MAX - 1 is closest to 33 Hz, DRV = 00.  6.1.192 hands the raw long
 * to find_closest(), whose a[i + 1] - x overflows for these values, and
 * programs 150 Hz (DRV = 01); 0205 clamps the value first.  The next value
 * up, -9223372036854775657, is a row of the write_range table.
 */
static void hwmon_max31760_test_pwm_freq_far_below(struct kunit *test)
{
	static const char * const inputs[] = {
		"-9223372036854775808", "-9223372036854775700",
		"-9223372036854775658",
	};
	const struct hwmon_test_wr set = { DS_CR1, 0x01 };
	char what[64];
	u8 *before;
	int i;

	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		max31760_test_preset(test, DS_CR1, 0x19);
		before = hwmon_test_snapshot(test);
		snprintf(what, sizeof(what), "pwm1_freq=%s", inputs[i]);
		KUNIT_EXPECT_EQ_MSG(test, max31760_test_store(test, "pwm1_freq",
							      inputs[i]),
				    0, "%s", what);
		hwmon_test_expect_file(test, before, &set, 1, what);
	}
}

/*
 * Seeded random values.  The default seed is fixed so that a failure
 * reproduces; every run prints it.  To try others, boot with
 * max31760_test.seed=N (e.g. `kunit.py run --kernel_args
 * max31760_test.seed=N`) or change the default below; a failure names
 * the iteration, the attribute and the value.
 */
static unsigned long long seed = 0x6b636f6e666f726dULL;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "seed of hwmon_max31760_test_write_random");

#define MAX31760_RANDOM_ITERATIONS	2000

enum max31760_kind {
	MAX31760_TEMP_LIMIT,
	MAX31760_PWM,
	MAX31760_PWM_ENABLE,
	MAX31760_PWM_FREQ,
	MAX31760_AUTO_CHANNELS,
	MAX31760_FAN_ENABLE,
	MAX31760_LUT,
	MAX31760_HYST,
};

static const struct max31760_target {
	const char *fmt;
	enum max31760_kind kind;
	int nr;		/* set-point MSB, fan channel or LUT entries */
	s64 lo, hi;	/* documented range, to draw values near it */
} max31760_targets[] = {
	{ "temp1_max", MAX31760_TEMP_LIMIT, DS_RHSH, -128000, 127875 },
	{ "temp1_crit", MAX31760_TEMP_LIMIT, DS_ROTSH, -128000, 127875 },
	{ "temp2_max", MAX31760_TEMP_LIMIT, DS_LHSH, -128000, 127875 },
	{ "temp2_crit", MAX31760_TEMP_LIMIT, DS_LOTSH, -128000, 127875 },
	{ "pwm1", MAX31760_PWM, 0, 0, 255 },
	{ "pwm1_enable", MAX31760_PWM_ENABLE, 0, 1, 2 },
	{ "pwm1_freq", MAX31760_PWM_FREQ, 0, 33, 25000 },
	{ "pwm1_auto_channels_temp", MAX31760_AUTO_CHANNELS, 0, 1, 3 },
	{ "fan1_enable", MAX31760_FAN_ENABLE, 0, 0, 1 },
	{ "fan2_enable", MAX31760_FAN_ENABLE, 1, 0, 1 },
	{ "pwm1_auto_point%d_pwm", MAX31760_LUT, 48, 0, 255 },
	{ "pwm1_auto_point_temp_hyst", MAX31760_HYST, 0, 0, 4294967295LL },
};

/* Round to the nearest 0.125 degC, halves away from zero, and clamp. */
static u16 max31760_ref_temp(s64 mc)
{
	s64 q;

	mc = clamp_t(s64, mc, -128000, 127875);
	q = mc / 125;
	if (mc % 125 >= 63)
		q++;
	else if (mc % 125 <= -63)
		q--;
	return (u16)(s16)(q * 32);
}

/* The closest of the four DRV frequencies, a tie going to the lower. */
static u8 max31760_ref_drv(s64 hz)
{
	static const s64 freq[] = { 33, 150, 1500, 25000 };
	u8 i, best = 0;

	for (i = 1; i < ARRAY_SIZE(freq); i++)
		if (hz > freq[i - 1] &&
		    (hz >= freq[i] || freq[i] - hz < hz - freq[i - 1]))
			best = i;
	return best;
}

/*
 * The datasheet's answer for @v written to @t, given the registers
 * @before: the errno, or 0 and the registers to change in @set.
 */
static int max31760_ref(const struct max31760_target *t, int lut, s64 v,
			const u8 *before, struct hwmon_test_wr *set, int *nset)
{
	u8 cr1 = before[DS_CR1], cr2 = before[DS_CR2], cr3 = before[DS_CR3];
	u16 temp;

	*nset = 1;
	switch (t->kind) {
	case MAX31760_TEMP_LIMIT:
		temp = max31760_ref_temp(v);
		set[0] = (struct hwmon_test_wr){ t->nr, temp >> 8 };
		set[1] = (struct hwmon_test_wr){ t->nr + 1, temp & 0xff };
		*nset = 2;
		return 0;
	case MAX31760_PWM:
		if (v < 0 || v > 255)
			break;
		set[0] = (struct hwmon_test_wr){ DS_PWMR, v };
		return 0;
	case MAX31760_PWM_ENABLE:
		if (v != 1 && v != 2)
			break;
		set[0] = (struct hwmon_test_wr){ DS_CR2,
					       v == 1 ? cr2 | 0x01 :
							cr2 & ~0x01 };
		return 0;
	case MAX31760_PWM_FREQ:
		set[0] = (struct hwmon_test_wr){ DS_CR1, (cr1 & ~0x18) |
					       max31760_ref_drv(v) << 3 };
		return 0;
	case MAX31760_AUTO_CHANNELS:
		if (v < 1 || v > 3)
			break;
		set[0] = (struct hwmon_test_wr){ DS_CR1, (cr1 & ~0x03) |
					       (v == 1 ? 0x01 :
						v == 2 ? 0x00 : 0x02) };
		return 0;
	case MAX31760_FAN_ENABLE:
		if (v != 0 && v != 1)
			break;
		set[0] = (struct hwmon_test_wr){ DS_CR3,
					       v ? cr3 | BIT(t->nr) :
						   cr3 & ~BIT(t->nr) };
		return 0;
	case MAX31760_LUT:
		*nset = 0;
		if (v < 0)
			return -EINVAL;
		if (v > 255)
			return -ERANGE;
		set[0] = (struct hwmon_test_wr){ DS_LUT(lut), v };
		*nset = 1;
		return 0;
	case MAX31760_HYST:
		*nset = 0;
		if (v < 0)
			return -EINVAL;
		if (v > U32_MAX)
			return -ERANGE;
		set[0] = (struct hwmon_test_wr){ DS_CR1, v < 3000 ?
					       cr1 & ~0x20 : cr1 | 0x20 };
		*nset = 1;
		return 0;
	}
	*nset = 0;
	return -EINVAL;
}

static void hwmon_max31760_test_write_random(struct kunit *test)
{
	struct hwmon_test_wr set[2];
	struct rnd_state rnd;
	char attr[32], input[24], what[96];
	int i, nset, ret, lut;
	u8 *before;
	s64 v;

	kunit_info(test, "seed %llu (max31760_test.seed=N to change), %d values\n",
		   seed, MAX31760_RANDOM_ITERATIONS);
	prandom_seed_state(&rnd, seed);

	for (i = 0; i < MAX31760_RANDOM_ITERATIONS; i++) {
		const struct max31760_target *t =
			&max31760_targets[prandom_u32_state(&rnd) %
					  ARRAY_SIZE(max31760_targets)];

		lut = t->kind == MAX31760_LUT ?
		      prandom_u32_state(&rnd) % t->nr : 0;
		snprintf(attr, sizeof(attr), t->fmt, lut + 1);
		v = hwmon_test_draw(&rnd, t->lo, t->hi, 4);
		snprintf(input, sizeof(input), "%lld", v);
		snprintf(what, sizeof(what), "seed %llu #%d %s=\"%s\"", seed,
			 i, attr, input);

		before = hwmon_test_snapshot(test);
		ret = max31760_ref(t, lut, v, before, set, &nset);
		KUNIT_EXPECT_EQ_MSG(test, max31760_test_store(test, attr, input),
				    ret, "%s", what);
		if (hwmon_test_expect_file(test, before, set, nset, what))
			return;
		kunit_kfree(test, before);
	}
}

static struct kunit_case max31760_test_cases[] = {
	KUNIT_CASE(hwmon_max31760_test_probe_comparator_mode),
	KUNIT_CASE_PARAM(hwmon_max31760_test_volatile_regs,
			 max31760_reg_blocks_gen_params),
	KUNIT_CASE(hwmon_max31760_test_max_register),
	KUNIT_CASE_PARAM(hwmon_max31760_test_fan_input,
			 max31760_tach_gen_params),
	KUNIT_CASE_PARAM(hwmon_max31760_test_temp_input,
			 max31760_temp_gen_params),
	KUNIT_CASE_PARAM(hwmon_max31760_test_temp_limit_write,
			 max31760_limit_gen_params),
	KUNIT_CASE(hwmon_max31760_test_temp_limit_read),
	KUNIT_CASE_PARAM(hwmon_max31760_test_status_bits,
			 max31760_status_gen_params),
	KUNIT_CASE(hwmon_max31760_test_pwm_input),
	KUNIT_CASE(hwmon_max31760_test_pwm_enable),
	KUNIT_CASE_PARAM(hwmon_max31760_test_pwm_freq,
			 max31760_freq_gen_params),
	KUNIT_CASE(hwmon_max31760_test_pwm_freq_read),
	KUNIT_CASE_PARAM(hwmon_max31760_test_pwm_auto_channels,
			 max31760_src_gen_params),
	KUNIT_CASE(hwmon_max31760_test_fan_enable),
	KUNIT_CASE(hwmon_max31760_test_lut),
	KUNIT_CASE(hwmon_max31760_test_temp_labels),
	KUNIT_CASE_PARAM(hwmon_max31760_test_temp_limit_range,
			 max31760_tlim_gen_params),
	KUNIT_CASE_PARAM(hwmon_max31760_test_write_range,
			 max31760_write_gen_params),
	KUNIT_CASE(hwmon_max31760_test_pwm_freq_far_below),
	KUNIT_CASE(hwmon_max31760_test_write_random),
	{}
};

static struct kunit_suite max31760_test_suite = {
	.name = "hwmon_max31760",
	.init = max31760_test_init,
	.exit = max31760_test_exit,
	.test_cases = max31760_test_cases,
};

kunit_test_suite(max31760_test_suite);

MODULE_DESCRIPTION("KUnit tests for the MAX31760 hwmon driver");
MODULE_LICENSE("GPL");
