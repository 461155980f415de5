"""Word lists for the demo town: business names by cuisine, streets, people, owners, haulers.

Every name is made up (phone numbers are in the fictional 555-01xx range, email domains end in
.example), but built the way real ones are, so that the demo reads like a real program.
"""

from __future__ import annotations

import dataclasses

# The Town's bounding box: a small California town of about 8 square miles.
LATITUDE_RANGE = (37.3600, 37.3950)
LONGITUDE_RANGE = (-122.1300, -122.0800)
CITY = "Los Robles"
POSTAL_CODES = ("94022", "94022", "94024")
AREA_CODE = "650"


@dataclasses.dataclass(frozen=True)
class Cuisine:
    """Names built from ``templates`` with ``{w}`` filled from ``words``; what the kitchen cooks."""

    key: str
    weight: int
    category: str  # a FoodServiceEstablishment.Category value
    food_types: str
    templates: tuple[str, ...]
    words: tuple[str, ...]
    # Typical meals per day and seats (low, high).
    meals: tuple[int, int] = (120, 450)
    seats: tuple[int, int] = (30, 110)


CUISINES: tuple[Cuisine, ...] = (
    Cuisine(
        "mexican", 14, "full_service", "Mexican; tortillas, carnitas, fried foods",
        ("Taqueria {w}", "{w} Cocina Mexicana", "{w} Mexican Grill", "Tacos {w}", "Mariscos {w}"),
        ("La Estrella", "El Farolito", "La Palma", "Los Arcos", "El Molino", "La Fogata", "El Sol",
         "La Cabaña", "Los Compadres", "El Tapatío", "La Bamba", "Jalisco", "La Michoacana", "El Grullense"),
    ),
    Cuisine(
        "chinese", 10, "full_service", "Chinese; wok frying, roast meats, noodles",
        ("{w} Kitchen", "{w} Garden", "{w} Palace", "{w} Dumpling House", "{w} Noodle Bar"),
        ("Golden Dragon", "Jade", "Lucky", "Happy Family", "Red Lantern", "Panda", "Great Wall",
         "Szechuan", "Hunan", "Silver Lotus", "Peking", "Canton", "Golden Wok", "Dragon Pearl"),
    ),
    Cuisine(
        "american", 12, "full_service", "American; grilled and fried foods, breakfast",
        ("{w} Diner", "{w} Grill", "{w} Burgers", "{w} Kitchen", "{w} Smokehouse", "{w} Chicken"),
        ("Blue Plate", "Main Street", "Oak Tree", "Hometown", "Route 66", "Red Barn", "Liberty",
         "Sunrise", "Eastside", "Foothill", "Pioneer", "Copper Kettle", "Lucky Star", "Arroyo"),
        meals=(150, 600),
    ),
    Cuisine(
        "cafe", 12, "cafe_bakery", "Café; coffee, pastries, sandwiches",
        ("{w} Café", "{w} Coffee", "{w} Bakery", "{w} Bagels", "{w} Donuts"),
        ("Blue Bottle", "Morning Glory", "Sunflower", "Acorn", "Hillside", "Sweet Pea", "Nectar",
         "Daily Grind", "Golden Crust", "Village", "Olive Branch", "Maple", "Poppy", "Wildflower"),
        meals=(80, 350), seats=(10, 45),
    ),
    Cuisine(
        "pizza", 8, "quick_service", "Pizza and pasta; cheese, sausage, fried appetisers",
        ("{w} Pizza", "{w} Pizza & Pasta", "{w} Pizzeria"),
        ("Tony's", "Sal's", "Giovanni's", "Luigi's", "Mario's", "Village", "Hilltop", "Corner",
         "Brick Oven", "Oak Fire", "Napoli", "Slice of Heaven"),
        meals=(100, 500), seats=(15, 70),
    ),
    Cuisine(
        "japanese", 7, "full_service", "Japanese; sushi, tempura, ramen broth",
        ("{w} Sushi", "{w} Ramen", "Sushi {w}", "{w} Izakaya", "{w} Teriyaki"),
        ("Sakura", "Kaze", "Umi", "Tomo", "Hana", "Fuji", "Koi", "Kiku", "Yama", "Nami", "Ichiban", "Zen"),
    ),
    Cuisine(
        "vietnamese", 6, "full_service", "Vietnamese; pho broth, fried rolls",
        ("Pho {w}", "{w} Noodle House", "Banh Mi {w}", "{w} Vietnamese Cuisine"),
        ("Saigon", "Hanoi", "Huong", "Mai", "Hoa", "Lotus", "Le", "Thanh", "Dalat", "Hue"),
    ),
    Cuisine(
        "italian", 6, "full_service", "Italian; pasta, sauces, sautéed dishes",
        ("{w} Trattoria", "Osteria {w}", "{w} Italian Kitchen", "Ristorante {w}"),
        ("Bella", "Nonna's", "Roma", "Vesuvio", "Da Vinci", "La Strada", "Tuscany", "Sorrento",
         "Amalfi", "Milano", "Palermo", "Il Giardino"),
    ),
    Cuisine(
        "indian", 5, "full_service", "Indian; curries, ghee, fried breads",
        ("{w} Indian Cuisine", "Taste of {w}", "{w} Tandoor", "{w} Curry House"),
        ("Bombay", "Himalaya", "Taj", "Punjab", "Kerala", "Royal", "Saffron", "Masala", "Namaste", "Chennai"),
    ),
    Cuisine(
        "thai", 5, "full_service", "Thai; curries, wok frying, coconut milk",
        ("{w} Thai", "Thai {w}", "{w} Thai Kitchen"),
        ("Bangkok", "Siam", "Lemongrass", "Basil", "Orchid", "Chiang Mai", "Elephant", "Jasmine", "Krua", "Lanna"),
    ),
    Cuisine(
        "mediterranean", 4, "quick_service", "Mediterranean; grilled meats, falafel frying",
        ("{w} Mediterranean Grill", "{w} Falafel", "{w} Kabob", "{w} Gyro"),
        ("Olive", "Aladdin", "Pita", "Zaytoon", "Cedar", "Athena", "Santorini", "Byblos", "Petra", "Kasbah"),
    ),
    Cuisine(
        "korean", 3, "full_service", "Korean; barbecue, soups, fried chicken",
        ("{w} BBQ", "{w} Tofu House", "{w} Korean Kitchen"),
        ("Seoul", "Gangnam", "Busan", "Hanil", "Arirang", "Jinju", "Daebak", "Hanok"),
    ),
    Cuisine(
        "bar", 4, "bar", "Brewpub; fried foods, burgers",
        ("The {w} Tap House", "{w} Brewing Company", "The {w} Pub", "{w} Sports Bar"),
        ("Rusty Anchor", "Tipsy Oak", "Old Mill", "Iron Horse", "Foggy Bottom", "Copper Still", "Stag",
         "Crown & Anchor", "Black Oak"),
        meals=(60, 300), seats=(40, 160),
    ),
    Cuisine(
        "grocery", 4, "grocery", "Market with deli and hot food counter",
        ("{w} Market", "{w} Deli", "{w} Grocery & Deli", "Mercado {w}"),
        ("Los Robles", "Village", "Corner", "Valley", "Oak Street", "Hillcrest", "Sunrise", "La Esperanza"),
        meals=(50, 250), seats=(0, 12),
    ),
    Cuisine(
        "institutional", 2, "institutional", "Institutional kitchen; breakfast and lunch service",
        ("{w} Cafeteria", "{w} Dining Services", "{w} Kitchen"),
        ("Los Robles High School", "Oak Valley Elementary", "Hillview Middle School", "El Camino Care Center",
         "Sunrise Senior Living", "Los Robles Community Hospital", "St. Francis Parish Hall"),
        meals=(200, 900), seats=(0, 250),
    ),
    Cuisine(
        "caterer", 2, "caterer", "Catering and commissary; large-batch cooking",
        ("{w} Catering", "{w} Commissary Kitchen", "{w} Events & Catering"),
        ("Silver Spoon", "Gourmet Express", "Fiesta", "Golden Gate", "Peninsula", "Heritage"),
        meals=(200, 1200), seats=(0, 0),
    ),
)  # fmt: skip

STREETS = (
    "El Camino Real", "Main Street", "State Street", "San Antonio Road", "Foothill Expressway",
    "Oak Avenue", "Mission Street", "Arroyo Drive", "Castro Street", "Plaza Way", "First Street",
    "Second Street", "University Avenue", "Fremont Avenue", "Grant Road", "Miramonte Avenue",
    "Los Robles Avenue", "Cuesta Drive", "Springer Road", "Homestead Road", "Edith Avenue",
    "Lincoln Avenue", "Almond Avenue", "Loyola Corners",
)  # fmt: skip

# Multi-tenant parcels: one shared gravity interceptor serves every kitchen on them (A2).
SHARED_SITES = (
    "Los Robles Plaza", "Camino Marketplace", "The Oaks Food Hall", "Rancho Shopping Center",
    "Village Court", "Foothill Crossing", "Mission Square", "State Street Market Hall",
    "Arroyo Commons", "Homestead Center", "Grant Park Plaza", "Loyola Corners Center",
)  # fmt: skip

FIRST_NAMES = (
    "Maria", "José", "Linh", "Wei", "Priya", "David", "Sarah", "Miguel", "Aiko", "Hannah", "Raj",
    "Elena", "Tom", "Grace", "Omar", "Sofia", "Daniel", "Mei", "Carlos", "Anita", "Kevin", "Laura",
    "Hiroshi", "Fatima", "Peter", "Rosa", "Minh", "Julia", "Samuel", "Yuki", "Ahmed", "Lucia",
)  # fmt: skip
LAST_NAMES = (
    "Garcia", "Nguyen", "Chen", "Patel", "Kim", "Rodriguez", "Smith", "Tanaka", "Lopez", "Wong",
    "Singh", "Hernandez", "Johnson", "Tran", "Martinez", "Park", "Okafor", "Rossi", "Haddad",
    "Delgado", "Lee", "Sato", "Murphy", "Castillo", "Kowalski", "Ibrahim", "Romero", "Le", "Shah",
)  # fmt: skip

OWNER_PATTERNS = (
    "{street} Holdings LLC", "{last} Properties LLC", "{last} Family Trust", "The {last} Revocable Trust",
    "{street} Partners LP", "{last} & {last2} Investments LLC", "Los Robles {kind} LLC",
)  # fmt: skip
OWNER_KINDS = ("Commercial", "Retail Center", "Realty", "Land Company", "Ventures")

HAULERS = (
    # name, share of the market (weight), phone suffix
    ("Bay Area Grease Recovery", 30),
    ("Peninsula Pumping & Jetting", 22),
    ("Golden State Liquid Waste", 16),
    ("Coastal Environmental Services", 12),
    ("Mission Septic & Grease", 10),
    ("Valley Rendering & Hauling", 10),
)
# Where the regional haulers of a large program are based (``town._haulers``).
HAULER_REGIONS = (
    "Santa Clara",
    "San Mateo",
    "Alameda",
    "Contra Costa",
    "Marin",
    "Sonoma",
    "Napa",
    "Solano",
    "Santa Cruz",
    "Monterey",
    "San Benito",
    "Stanislaus",
    "San Joaquin",
    "Merced",
)
TRUCKS = (
    "Peterbilt 348 vacuum truck", "Freightliner M2 vacuum truck", "International HV vacuum truck",
    "Kenworth T370 vacuum tanker", "Isuzu FTR grease trap pumper",
)  # fmt: skip
FACILITIES = (
    ("Los Robles Regional Water Quality Control Plant, FOG Receiving Station", "2501 Embarcadero Way, Palo Alto, CA 94303"),
    ("Bay Rendering Company", "1240 Old Bayshore Highway, San Jose, CA 95112"),
    ("Silicon Valley Clean Water Digester Facility", "1400 Radio Road, Redwood City, CA 94065"),
)  # fmt: skip

INTERCEPTOR_LOCATIONS = (
    "Rear parking lot, two traffic-rated lids", "Sidewalk vault in front of the building",
    "Alley behind the kitchen door", "Landscaped strip by the trash enclosure",
    "Under the loading dock apron", "Side yard beside the grease bin",
)  # fmt: skip
TRAP_LOCATIONS = (
    "Under the three-compartment sink", "Floor-mounted beside the dishwasher", "Under the prep sink",
    "In the floor by the mop sink", "Below the pot sink, access panel",
)  # fmt: skip
PREP_HOURS = (
    "05:30-14:00",
    "06:00-15:00",
    "07:00-15:00",
    "09:00-21:00",
    "10:00-22:00",
    "10:30-21:30",
    "15:00-23:00",
)
CLEANING_HOURS = ("14:00-15:00", "21:30-22:30", "22:00-23:00", "22:30-23:30", "23:00-00:00", "15:00-16:00")
