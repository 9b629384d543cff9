/**
 * The time zones of the area codes of the three countries of many zones that Herald's customers
 * send to most: the United States and Canada (the North American Numbering Plan) and Australia.
 *
 * Sources. North America: the area codes of each state and province as NANPA lists them (the
 * North American Numbering Plan Administrator's area code list, nationalnanpa.com, "NPA Reports"),
 * as of November 2026, new overlays included; each state's or province's zone from the IANA time
 * zone database. Australia: the geographic area codes and number ranges of the ACMA's
 * Telecommunications Numbering Plan 2015 (02 NSW and the ACT, 03 Victoria and Tasmania, 07
 * Queensland, 08 South Australia, the Northern Territory and Western Australia).
 *
 * Where an area code spans zones, it takes the zone of most of its people; each such code is noted
 * beside its state below. A number an area code cannot place (a mobile in Australia, a toll-free
 * or personal number in North America) has no zone here: see `zoneOfNumber` (phone-zones.ts).
 * `phone-zones.test.ts` holds the table to libphonenumber's list of area codes, so a code
 * libphonenumber knows and this table does not fails a test when the library is updated.
 */

/** State or province, its zone, its area codes. */
const NANP: Array<[region: string, zone: string, codes: string]> = [
  // The United States.
  ['Alabama', 'America/Chicago', '205 251 256 334 659 938'],
  ['Alaska', 'America/Anchorage', '907'], // The Aleutians west of 169°30′W keep Adak time: a few thousand people.
  ['Arizona', 'America/Phoenix', '480 520 602 623 928'], // No daylight saving time (the Navajo Nation keeps it: a minority of 928).
  ['Arkansas', 'America/Chicago', '327 479 501 870'],
  [
    'California',
    'America/Los_Angeles',
    '209 213 279 310 323 341 350 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 738 747 760 805 818 820 831 840 858 909 916 925 949 951',
  ],
  ['Colorado', 'America/Denver', '303 719 720 748 970 983'],
  ['Connecticut', 'America/New_York', '203 475 860 959'],
  ['Delaware', 'America/New_York', '302'],
  ['District of Columbia', 'America/New_York', '202 771'],
  ['Florida', 'America/New_York', '239 305 321 324 352 386 407 561 645 656 689 727 728 754 772 786 813 863 904 941 954'],
  // The panhandle west of the Apalachicola (Pensacola, Fort Walton Beach, Panama City) outnumbers Tallahassee.
  ['Florida (850, 448)', 'America/Chicago', '448 850'],
  ['Georgia', 'America/New_York', '229 404 470 478 678 706 762 770 912 943'],
  ['Hawaii', 'Pacific/Honolulu', '808'],
  ['Idaho', 'America/Boise', '208 986'], // The panhandle north of the Salmon River is on Pacific time: a minority.
  ['Illinois', 'America/Chicago', '217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 872'],
  ['Indiana', 'America/Indiana/Indianapolis', '260 317 463 574 765 812 930'], // 812: Evansville's corner is Central, most of the south Eastern.
  ['Indiana (219)', 'America/Chicago', '219'], // The north-west (Gary, Hammond, Valparaiso, La Porte) is Central.
  ['Iowa', 'America/Chicago', '319 515 563 641 712'],
  ['Kansas', 'America/Chicago', '316 620 785 913'], // Four western counties (620, 785) are Mountain.
  ['Kentucky', 'America/New_York', '502 606 859'],
  ['Kentucky (270, 364)', 'America/Chicago', '270 364'], // Western Kentucky (Bowling Green, Owensboro, Paducah); Elizabethtown is Eastern.
  ['Louisiana', 'America/Chicago', '225 318 337 504 985'],
  ['Maine', 'America/New_York', '207'],
  ['Maryland', 'America/New_York', '227 240 301 410 443 667'],
  ['Massachusetts', 'America/New_York', '339 351 413 508 617 774 781 857 978'],
  ['Michigan', 'America/Detroit', '231 248 269 313 517 586 616 734 810 906 947 989'], // 906: four counties on the Wisconsin border are Central.
  ['Minnesota', 'America/Chicago', '218 320 507 612 651 763 952'],
  ['Mississippi', 'America/Chicago', '228 601 662 769'],
  ['Missouri', 'America/Chicago', '235 314 417 557 573 636 660 816 975'],
  ['Montana', 'America/Denver', '406'],
  ['Nebraska', 'America/Chicago', '308 402 531'], // 308: the Panhandle (Scottsbluff) is Mountain, most of 308 Central.
  ['Nevada', 'America/Los_Angeles', '702 725 775'],
  ['New Hampshire', 'America/New_York', '603'],
  ['New Jersey', 'America/New_York', '201 551 609 640 732 848 856 862 908 973'],
  ['New Mexico', 'America/Denver', '505 575'],
  ['New York', 'America/New_York', '212 315 329 332 347 363 516 518 585 607 631 646 680 716 718 838 845 914 917 929 934'],
  ['North Carolina', 'America/New_York', '252 336 472 704 743 828 910 919 980 984'],
  ['North Dakota', 'America/Chicago', '701'], // The south-west is Mountain: a minority.
  ['Ohio', 'America/New_York', '216 220 234 283 326 330 380 419 440 513 567 614 740 937'],
  ['Oklahoma', 'America/Chicago', '405 539 572 580 918'],
  ['Oregon', 'America/Los_Angeles', '458 503 541 971'], // 541: most of Malheur County is Mountain.
  ['Pennsylvania', 'America/New_York', '215 223 267 272 412 445 484 570 582 610 717 724 814 835 878'],
  ['Rhode Island', 'America/New_York', '401'],
  ['South Carolina', 'America/New_York', '803 821 839 843 854 864'],
  ['South Dakota', 'America/Chicago', '605'], // West River (Rapid City) is Mountain; Sioux Falls and the east, most people, Central.
  ['Tennessee', 'America/Chicago', '615 629 731 901 931'],
  ['Tennessee (423, 865)', 'America/New_York', '423 865'], // East Tennessee (Knoxville, Chattanooga, the Tri-Cities).
  ['Texas', 'America/Chicago', '210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 936 940 945 956 972 979'], // 432: Midland and Odessa are Central, two far-western counties Mountain.
  ['Texas (915)', 'America/Denver', '915'], // El Paso.
  ['Utah', 'America/Denver', '385 435 801'],
  ['Vermont', 'America/New_York', '802'],
  ['Virginia', 'America/New_York', '276 434 540 571 686 703 757 804 826 948'],
  ['Washington', 'America/Los_Angeles', '206 253 360 425 509 564'],
  ['West Virginia', 'America/New_York', '304 681'],
  ['Wisconsin', 'America/Chicago', '262 274 353 414 534 608 715 920'],
  ['Wyoming', 'America/Denver', '307'],
  // Canada.
  ['Alberta', 'America/Edmonton', '368 403 587 780 825'],
  ['British Columbia', 'America/Vancouver', '236 250 257 604 672 778'], // 250: the East Kootenay and the Peace are Mountain.
  ['Manitoba', 'America/Winnipeg', '204 431 584'],
  ['New Brunswick', 'America/Moncton', '428 506'],
  ['Newfoundland and Labrador', 'America/St_Johns', '709 879'], // Most of Labrador is Atlantic: a minority.
  ['Nova Scotia and Prince Edward Island', 'America/Halifax', '782 902'],
  ['Ontario', 'America/Toronto', '226 249 289 343 365 382 416 437 519 548 613 647 683 705 742 753 807 905 942'], // 807: Kenora's west is Central, Thunder Bay Eastern.
  ['Quebec', 'America/Toronto', '263 354 367 418 438 450 468 514 579 581 819 873'], // The Lower North Shore and the Magdalen Islands are Atlantic.
  ['Saskatchewan', 'America/Regina', '306 474 639'], // No daylight saving time.
  ['Yukon, the Northwest Territories and Nunavut', 'America/Edmonton', '867'], // Yukon and the NWT keep Mountain time, most of Nunavut Eastern or Central.
];

const byAreaCode = new Map<string, string>();
for (const [, zone, codes] of NANP) for (const code of codes.split(' ')) byAreaCode.set(code, zone);

/** Every area code of the table (for its test). */
export const NANP_AREA_CODES: ReadonlyMap<string, string> = byAreaCode;

/**
 * Australia's geographic numbers: the area code and the first digit of the local number
 * (08 8… South Australia, 08 89… the Northern Territory, 08 9… and 08 6… Western Australia).
 * Broken Hill (NSW, 08 80…) keeps South Australian time, like its numbers.
 */
const AUSTRALIA: Array<[prefix: string, zone: string]> = [
  ['2', 'Australia/Sydney'], // New South Wales and the ACT (Lord Howe Island, 300 people, is half an hour apart).
  ['3', 'Australia/Melbourne'], // Victoria and Tasmania (Hobart keeps the same time).
  ['7', 'Australia/Brisbane'], // Queensland: no daylight saving time.
  ['889', 'Australia/Darwin'], // Darwin, Alice Springs, Katherine: no daylight saving time.
  ['88', 'Australia/Adelaide'],
  ['87', 'Australia/Adelaide'],
  ['89', 'Australia/Perth'],
  ['86', 'Australia/Perth'],
];

/**
 * The zone of a North American (`NANP`: +1) or Australian (+61) number from its area code, or undefined
 * when its area code places it nowhere. `national` is the national significant number (no trunk 0, no
 * country code).
 */
export function zoneOfAreaCode(plan: 'NANP' | 'AU', national: string): string | undefined {
  if (plan === 'AU') return AUSTRALIA.find(([prefix]) => national.startsWith(prefix))?.[1];
  return byAreaCode.get(national.slice(0, 3));
}
