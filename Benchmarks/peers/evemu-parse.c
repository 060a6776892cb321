/* The peer of the replay-throughput benchmark: the bare parse of an evemu
 * recording by libevemu's own reader, counting events. */
#include <evemu.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: evemu-parse FILE.evemu\n");
		return 64;
	}
	FILE *fp = fopen(argv[1], "r");
	if (!fp) {
		perror(argv[1]);
		return 1;
	}
	struct evemu_device *dev = evemu_new(NULL);
	if (!dev || evemu_read(dev, fp) < 0) {
		fprintf(stderr, "%s: not an evemu recording\n", argv[1]);
		return 1;
	}
	struct input_event ev;
	long long count = 0, sum = 0;
	while (evemu_read_event(fp, &ev) > 0) {
		count++;
		sum += ev.value;
	}
	printf("%lld events (checksum %lld)\n", count, sum);
	evemu_delete(dev);
	fclose(fp);
	return 0;
}
