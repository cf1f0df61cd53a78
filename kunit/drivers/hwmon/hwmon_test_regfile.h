/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The register-file bench of the hwmon KUnit tests (max31760_test.c,
 * emc2305_test.c): as regmap-kunit builds every case on one RAM backend,
 * every case here drives the real driver on one mock chip.
 *
 * The mock is an I2C adapter that serves a 256-byte register file at one
 * client address and counts bus reads and writes per register, so that
 * a case can tell a value served by the bus from one served by a cache
 * and see every register a write touched.  It speaks plain I2C (a
 * register pointer, then data; reads and writes go on from the pointer,
 * auto-incrementing) or SMBus byte and word data, whichever the driver
 * uses.
 *
 * hwmon attributes are reached the way sysfs reaches them: by name in the
 * attribute groups of a device, calling show() and store().  A write is
 * checked against the whole register file: hwmon_test_snapshot() before
 * it, hwmon_test_expect_file() after it.
 *
 * A test's test->priv points to its context, whose first member is its
 * struct hwmon_test_regfile.
 */
#ifndef _HWMON_TEST_REGFILE_H
#define _HWMON_TEST_REGFILE_H

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/string.h>

struct hwmon_test_regfile {
	struct i2c_adapter adap;
	bool added;
	u16 addr;	/* the client address it answers */
	u8 ptr;		/* the I2C register pointer */
	u8 regs[256];
	unsigned int reads[256];
	unsigned int writes[256];
	unsigned int probe_writes[256];	/* writes before the restart */
	struct i2c_client *client;
	struct device *hwmon;	/* the driver's, below the client */
};

static inline struct hwmon_test_regfile *hwmon_test_regs(struct kunit *test)
{
	return test->priv;
}

static inline int hwmon_test_i2c_xfer(struct i2c_adapter *adap,
				      struct i2c_msg *msgs, int num)
{
	struct hwmon_test_regfile *m = i2c_get_adapdata(adap);
	int i, j;

	for (i = 0; i < num; i++) {
		struct i2c_msg *msg = &msgs[i];

		if (msg->addr != m->addr)
			return -ENXIO;

		if (msg->flags & I2C_M_RD) {
			for (j = 0; j < msg->len; j++) {
				msg->buf[j] = m->regs[m->ptr];
				m->reads[m->ptr]++;
				m->ptr++;
			}
			continue;
		}

		if (!msg->len)
			continue;
		m->ptr = msg->buf[0];
		for (j = 1; j < msg->len; j++) {
			m->regs[m->ptr] = msg->buf[j];
			m->writes[m->ptr]++;
			m->ptr++;
		}
	}

	return num;
}

static inline int hwmon_test_smbus_xfer(struct i2c_adapter *adap, u16 addr,
					unsigned short flags, char read_write,
					u8 command, int size,
					union i2c_smbus_data *data)
{
	struct hwmon_test_regfile *m = i2c_get_adapdata(adap);
	u8 next = command + 1;

	if (addr != m->addr)
		return -ENXIO;

	switch (size) {
	case I2C_SMBUS_BYTE_DATA:
		if (read_write == I2C_SMBUS_READ) {
			data->byte = m->regs[command];
			m->reads[command]++;
		} else {
			m->regs[command] = data->byte;
			m->writes[command]++;
		}
		return 0;
	case I2C_SMBUS_WORD_DATA:
		/* SMBus words go low byte first: the lower address. */
		if (read_write == I2C_SMBUS_READ) {
			data->word = m->regs[command] | m->regs[next] << 8;
			m->reads[command]++;
			m->reads[next]++;
		} else {
			m->regs[command] = data->word & 0xff;
			m->regs[next] = data->word >> 8;
			m->writes[command]++;
			m->writes[next]++;
		}
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static inline u32 hwmon_test_i2c_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C;
}

static inline u32 hwmon_test_smbus_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_WORD_DATA;
}

/* Register the adapter, answering @addr in SMBus (@smbus) or plain I2C. */
static inline int hwmon_test_regfile_add(struct hwmon_test_regfile *m,
					 const char *name, u16 addr,
					 bool smbus)
{
	static const struct i2c_algorithm i2c_algo = {
		.master_xfer = hwmon_test_i2c_xfer,
		.functionality = hwmon_test_i2c_func,
	};
	static const struct i2c_algorithm smbus_algo = {
		.smbus_xfer = hwmon_test_smbus_xfer,
		.functionality = hwmon_test_smbus_func,
	};
	int ret;

	m->addr = addr;
	m->adap.owner = THIS_MODULE;
	m->adap.algo = smbus ? &smbus_algo : &i2c_algo;
	strscpy(m->adap.name, name, sizeof(m->adap.name));
	i2c_set_adapdata(&m->adap, m);
	ret = i2c_add_adapter(&m->adap);
	m->added = !ret;
	return ret;
}

static inline void hwmon_test_regfile_del(struct hwmon_test_regfile *m)
{
	if (m->added)
		i2c_del_adapter(&m->adap);
}

static inline int hwmon_test_match_hwmon(struct device *dev, void *data)
{
	return dev->class && !strcmp(dev->class->name, "hwmon");
}

/*
 * Instantiate the client @info on the adapter, which runs its driver's
 * probe.  Returns 1 once the driver bound and its hwmon device is found,
 * with what the probe wrote kept in @probe_writes and the counters
 * restarted; 0 if the driver did not bind; or a negative errno.
 */
static inline int hwmon_test_new_client(struct hwmon_test_regfile *m,
					struct i2c_board_info *info)
{
	int ret;

	m->client = i2c_new_client_device(&m->adap, info);
	if (IS_ERR(m->client)) {
		ret = PTR_ERR(m->client);
		m->client = NULL;
		return ret;
	}
	if (!m->client->dev.driver)
		return 0;
	m->hwmon = device_find_child(&m->client->dev, NULL,
				     hwmon_test_match_hwmon);
	if (!m->hwmon)
		return -ENODEV;

	memcpy(m->probe_writes, m->writes, sizeof(m->writes));
	memset(m->reads, 0, sizeof(m->reads));
	memset(m->writes, 0, sizeof(m->writes));
	return 1;
}

/* Remove the client, if any: undo hwmon_test_new_client(). */
static inline void hwmon_test_client_del(struct hwmon_test_regfile *m)
{
	if (m->hwmon)
		put_device(m->hwmon);
	if (m->client)
		i2c_unregister_device(m->client);
}

/* The attribute @name of @dev, or NULL. */
static inline struct device_attribute *
hwmon_test_find_attr(struct device *dev, const char *name)
{
	const struct attribute_group **grp;
	struct attribute **attr;

	for (grp = dev->groups; grp && *grp; grp++)
		for (attr = (*grp)->attrs; attr && *attr; attr++)
			if (!strcmp((*attr)->name, name))
				return container_of(*attr,
						    struct device_attribute,
						    attr);
	return NULL;
}

/* The same; the case stops if there is none. */
static inline struct device_attribute *
hwmon_test_attr(struct kunit *test, struct device *dev, const char *name)
{
	struct device_attribute *da = hwmon_test_find_attr(dev, name);

	KUNIT_ASSERT_NOT_NULL_MSG(test, da, "no attribute %s", name);
	return da;
}

/* Show @name and parse it as a decimal; returns 0 or a negative errno. */
static inline int hwmon_test_show(struct kunit *test, struct device *dev,
				  const char *name, long *val)
{
	struct device_attribute *da = hwmon_test_attr(test, dev, name);
	char *buf;
	ssize_t len;

	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = da->show(dev, da, buf);
	if (len < 0)
		return len;
	return kstrtol(buf, 10, val);
}

/* Store @str into @name; returns 0 if the whole string was taken. */
static inline int hwmon_test_store(struct kunit *test, struct device *dev,
				   const char *name, const char *str)
{
	struct device_attribute *da = hwmon_test_attr(test, dev, name);
	ssize_t len;

	len = da->store(dev, da, str, strlen(str));
	if (len < 0)
		return len;
	return len == strlen(str) ? 0 : -EIO;
}

/* A register and the value a write must leave in it. */
struct hwmon_test_wr {
	u8 reg;
	u8 val;
};

/* Snapshot the register file and restart the write counters. */
static inline u8 *hwmon_test_snapshot(struct kunit *test)
{
	struct hwmon_test_regfile *m = hwmon_test_regs(test);
	u8 *before;

	before = kunit_kmalloc(test, sizeof(m->regs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, before);
	memcpy(before, m->regs, sizeof(m->regs));
	memset(m->writes, 0, sizeof(m->writes));
	return before;
}

/*
 * The register file is @before with @set applied, and no register
 * outside @set was written on the bus.  A register in @set may be
 * written more than once, so only the end state and the absence of
 * stray writes count.  @what names the write in the failure messages.
 * Returns the number of mismatches.
 */
static inline int hwmon_test_expect_file(struct kunit *test, const u8 *before,
					 const struct hwmon_test_wr *set,
					 int nset, const char *what)
{
	struct hwmon_test_regfile *m = hwmon_test_regs(test);
	int reg, i, bad = 0;

	for (reg = 0; reg < ARRAY_SIZE(m->regs); reg++) {
		bool listed = false;
		u8 want = before[reg];

		for (i = 0; i < nset; i++) {
			if (set[i].reg == reg) {
				want = set[i].val;
				listed = true;
			}
		}
		/* the _MSG forms: KTAP keeps their indented value lines */
		if (m->regs[reg] != want) {
			KUNIT_EXPECT_EQ_MSG(test, m->regs[reg], want,
					    "%s: reg %#04x", what, reg);
			bad++;
		}
		if (!listed && m->writes[reg]) {
			KUNIT_EXPECT_EQ_MSG(test, m->writes[reg], 0,
					    "%s: reg %#04x written", what, reg);
			bad++;
		}
	}
	return bad;
}

static inline u64 hwmon_test_rand64(struct rnd_state *rnd)
{
	return (u64)prandom_u32_state(rnd) << 32 | prandom_u32_state(rnd);
}

/*
 * A value near @lo..@hi, one of the first @ways of these, as likely each:
 * uniform over the range widened by its size on both sides, within 2 of
 * either end, any 64-bit number, the range itself.
 */
static inline s64 hwmon_test_draw(struct rnd_state *rnd, s64 lo, s64 hi,
				  unsigned int ways)
{
	u64 span = (u64)(hi - lo) + 1;

	switch (prandom_u32_state(rnd) % ways) {
	case 0:
		return lo - (s64)span + (s64)(hwmon_test_rand64(rnd) % (3 * span));
	case 1:
		return (prandom_u32_state(rnd) & 1 ? lo : hi) +
		       (s64)(prandom_u32_state(rnd) % 5) - 2;
	case 2:
		return (s64)hwmon_test_rand64(rnd);
	default:
		return lo + (s64)(hwmon_test_rand64(rnd) % span);
	}
}

#endif /* _HWMON_TEST_REGFILE_H */
