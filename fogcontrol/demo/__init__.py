"""The demo town: a deterministic, synthetic Town of Los Robles for trying the program out.

`fogcontrol seed_demo` builds it (fogcontrol.demo.town) through the registry and program services,
then calls the other apps' demo seeders (fogcontrol.demo.seeders). Nothing here is used by a real
Town's data.
"""
